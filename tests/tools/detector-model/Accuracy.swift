import Foundation

/// The share right per kind (single words, word pairs, sentences) of the samples `included`,
/// with logits `logit(sample, language)`: the mean over languages, and the mean weighted by the
/// languages' shares of the world's writers (the model's priors).
func accuracy(_ samples: [CalibrationSample], model: DetectorModel, included: (CalibrationSample) -> Bool,
              logit: (CalibrationSample, Int) -> Float) -> (mean: [Double], weighted: [Double]) {
    let shares = model.logPriors.map { Double(exp($0)) }
    var mean: [Double] = [], weighted: [Double] = []
    for kind in 0..<3 {
        var right = [Double](repeating: 0, count: shares.count), total = right
        for sample in samples where sample.kind == kind && included(sample) {
            var best = -Float.infinity, answer = -1
            for c in sample.candidates {
                let value = logit(sample, c)
                if value > best { best = value; answer = c }
            }
            total[sample.truth] += 1
            if answer == sample.truth { right[sample.truth] += 1 }
        }
        let present = total.indices.filter { total[$0] > 0 }
        let shareSum = present.reduce(0) { $0 + shares[$1] }
        mean.append(100 * present.reduce(0) { $0 + right[$1] / total[$1] } / Double(max(1, present.count)))
        weighted.append(100 * present.reduce(0) { $0 + shares[$1] * right[$1] / total[$1] } / max(1e-300, shareSum))
    }
    return (mean, weighted)
}
