import Foundation

extension DetectorModel {
    /// Each language's share of the world's writers (its prior), indexed like ``languages``.
    var writerShares: [Double] { logPriors.map { Double(exp($0)) } }

    /// A held-back sample's logit for `language` under the model's temperatures and prior
    /// weights, before any per-language offset.
    func baseLogit(_ sample: CalibrationSample, _ language: Int) -> Float {
        sample.scores[language] / temperature(words: sample.words) + priorWeight(words: sample.words) * logPriors[language]
    }
}

/// The share right (%) of `samples` when each is answered by its highest logit: the mean over
/// the languages present, and the mean weighted by their `shares` of the world's writers.
func shareRight(_ samples: some Sequence<CalibrationSample>, shares: [Double],
                logit: (CalibrationSample, Int) -> Float) -> (mean: Double, weighted: Double) {
    var right = [Double](repeating: 0, count: shares.count), total = right
    for sample in samples {
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
    return (100 * present.reduce(0) { $0 + right[$1] / total[$1] } / Double(max(1, present.count)),
            100 * present.reduce(0) { $0 + shares[$1] * right[$1] / total[$1] } / max(1e-300, shareSum))
}

/// ``shareRight`` per kind (single words, word pairs, sentences) of the samples `included`.
func accuracy(_ samples: [CalibrationSample], model: DetectorModel, included: (CalibrationSample) -> Bool,
              logit: (CalibrationSample, Int) -> Float) -> (mean: [Double], weighted: [Double]) {
    let shares = model.writerShares
    let figures = (0..<3).map { kind in shareRight(samples.filter { $0.kind == kind && included($0) }, shares: shares, logit: logit) }
    return (figures.map(\.mean), figures.map(\.weighted))
}
