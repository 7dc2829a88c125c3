import Foundation

/// One held-back sample: the model's summed log-likelihoods and the right answer.
struct CalibrationSample {
    var scores: [Float]
    var candidates: [Int]
    var words: Int
    var truth: Int
}

/// Learns the decision rule on the calibration lines (701-800) of every language: the softmax
/// temperature per word count (maximum likelihood of the right language, by grid search), then
/// an isotonic map from the top posterior to the measured share of right answers (pool adjacent
/// violators over 20 bins). Prints the reliability diagram it measured.
func learnDecisionRule(_ model: DetectorModel, sources: [LanguageSource], flores: String) throws -> DetectorModel.Parameters {
    var samples: [CalibrationSample] = []
    for (index, source) in sources.enumerated() {
        guard let stem = source.flores else { continue }
        let lines = try floresLines(flores, stem, Split.calibration)
        let cuts = HeldOutCuts(lines: lines)
        var texts = cuts.singleWords + cuts.wordPairs + cuts.sentences
        // Prefixes of 3, 4 and 6 words, so that every temperature class has data.
        for count in [3, 4, 6] { texts += cuts.sentences.map { $0.split(separator: " ").prefix(count).joined(separator: " ") } }
        for text in texts {
            let candidates = model.candidates(for: ScriptCensus(text))
            guard candidates.count > 1, candidates.contains(index) else { continue }
            // Unpruned: the likelihood of the right language is needed even where it trails.
            let (scores, words) = model.logLikelihoods(of: text, candidates: candidates, letterLimit: DetectorModel.letterLimit, prune: false)
            guard words > 0 else { continue }
            samples.append(CalibrationSample(scores: scores, candidates: candidates, words: words, truth: index))
        }
    }
    var parameters = model.parameters
    let classes = parameters.temperatures.count
    let grid: [Float] = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50]
    for wordClass in 0..<classes {
        let members = samples.filter { min(classes, $0.words) - 1 == wordClass }
        guard !members.isEmpty else { continue }
        var best: (t: Float, ll: Double) = (1, -.infinity)
        for t in grid {
            var ll = 0.0
            for sample in members {
                let logits = sample.candidates.map { sample.scores[$0] / t }
                let peak = logits.max()!
                let logSum = log(logits.reduce(0) { $0 + exp($1 - peak) }) + peak
                ll += Double(sample.scores[sample.truth] / t - logSum)
            }
            if ll > best.ll { best = (t, ll) }
        }
        parameters.temperatures[wordClass] = best.t
    }
    var tuned = model
    tuned.parameters = parameters
    let bins = parameters.calibration.count
    var answers = [Double](repeating: 0, count: bins), right = [Double](repeating: 0, count: bins)
    for sample in samples {
        let ranked = tuned.posteriors(scores: sample.scores, candidates: sample.candidates, words: sample.words, top: 1)
        let bin = min(bins - 1, Int(ranked[0].posterior * Float(bins)))
        answers[bin] += 1
        if ranked[0].language == sample.truth { right[bin] += 1 }
    }
    parameters.calibration = isotonic(right: right, answers: answers).map(Float.init)
    print("decision rule from \(samples.count) held-back samples: temperatures by word count \(parameters.temperatures)")
    print("reliability (top posterior bin: answers, share right → calibrated):")
    for bin in 0..<bins where answers[bin] > 0 {
        print(String(format: "  %.2f-%.2f: %6.0f, %.3f → %.3f", Double(bin) / Double(bins), Double(bin + 1) / Double(bins),
                     answers[bin], right[bin] / answers[bin], parameters.calibration[bin]))
    }
    return parameters
}

/// Pool adjacent violators: the non-decreasing sequence closest (weighted by answers) to the
/// bins' shares right. Empty bins take their neighbours' value.
func isotonic(right: [Double], answers: [Double]) -> [Double] {
    var blocks: [(sum: Double, weight: Double, bins: Int)] = []
    for (r, a) in zip(right, answers) {
        blocks.append((r, a, 1))
        while blocks.count > 1 {
            let last = blocks[blocks.count - 1], previous = blocks[blocks.count - 2]
            let lastMean = last.weight > 0 ? last.sum / last.weight : .infinity
            let previousMean = previous.weight > 0 ? previous.sum / previous.weight : -.infinity
            guard previousMean > lastMean else { break }
            blocks.removeLast(2)
            blocks.append((previous.sum + last.sum, previous.weight + last.weight, previous.bins + last.bins))
        }
    }
    var out: [Double] = []
    for block in blocks { out += Array(repeating: block.weight > 0 ? block.sum / block.weight : .nan, count: block.bins) }
    // Fill empty bins: from the left neighbour, else the right one, else the bin's centre.
    for i in out.indices where out[i].isNaN {
        out[i] = out[..<i].last(where: { !$0.isNaN }) ?? out[i...].first(where: { !$0.isNaN }) ?? (Double(i) + 0.5) / Double(out.count)
    }
    return out
}
