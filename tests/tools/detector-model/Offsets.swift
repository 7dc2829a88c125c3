import Foundation

/// Per-language offsets of the decision rule's logits, learned on held-back samples so that the
/// weighted share answered right is as high as it gets (``learnOffsets`` weighs the mean over
/// languages, lingua's protocol, with the share of the world's writers). A language the others swallow (Malay next to Indonesian,
/// Galician between Spanish and Portuguese) gets a higher offset, and one that swallows them a
/// lower one: the offsets move the boundary between close languages to where the held-back
/// text says it lies, which the priors and the temperature cannot do.
///
/// Coordinate ascent, exact per step: with every other offset fixed, whether a sample comes out
/// right depends on the offset `δ` of language `l` through one threshold (its truth wins iff
/// `x + δ` passes the best other logit, or loses to it iff `l` is the runner-up), so the best
/// `δ` is found by sweeping the sorted thresholds.
struct LogitOffsets {
    /// The largest offset, in logits: beyond it a language would win texts it scores far worse on.
    var bound: Float = 3
    /// Passes over the languages.
    var passes = 4
    /// Among offsets that score alike, the one nearest 0 is kept; an offset must gain at least
    /// this much of the objective over 0 to be taken at all (0.005: half a point of one
    /// language's share right on one kind of text).
    var minimumGain = 0.005

    /// Learns one offset per language.
    /// - Parameters:
    ///   - logit: a sample's logit for a language before any offset.
    ///   - weight: each sample's weight in the objective (`1 / count` of its kind and language
    ///     makes it the mean over languages).
    func learn(samples: [CalibrationSample], languages: Int, logit: (CalibrationSample, Int) -> Float,
               weight: (CalibrationSample) -> Double) -> [Float] {
        var bias = [Float](repeating: 0, count: languages)
        let base = samples.map { sample in sample.candidates.map { logit(sample, $0) } }
        let weights = samples.map(weight)
        var samplesOf = [[Int]](repeating: [], count: languages)
        for (i, sample) in samples.enumerated() { for c in sample.candidates { samplesOf[c].append(i) } }
        for _ in 0..<passes {
            for l in 0..<languages where !samplesOf[l].isEmpty {
                // (threshold on δ, weight gained above it (+) or below it (−)).
                var events: [(threshold: Float, weight: Double)] = []
                var below = 0.0  // weight right at δ = −∞ (runner-up truths that l never beats)
                for i in samplesOf[l] {
                    let sample = samples[i]
                    var other = -Float.infinity, otherLanguage = -1, own: Float = 0
                    for (k, c) in sample.candidates.enumerated() {
                        if c == l { own = base[i][k]; continue }
                        let value = base[i][k] + bias[c]
                        if value > other { other = value; otherLanguage = c }
                    }
                    let threshold = other - own
                    if sample.truth == l {
                        events.append((threshold, weights[i]))
                    } else if sample.truth == otherLanguage {
                        below += weights[i]
                        events.append((threshold, -weights[i]))
                    }
                }
                events.sort { $0.threshold < $1.threshold }
                // Right weight for δ just above each threshold; keep the best δ within the bound,
                // nearest 0 among equals (midpoints between thresholds).
                func score(at delta: Float) -> Double {
                    var total = below
                    for event in events where event.threshold < delta { total += event.weight }
                    return total
                }
                let atZero = score(at: 0)
                var best = (delta: Float(0), score: atZero)
                var running = below
                for (j, event) in events.enumerated() {
                    running += event.weight
                    let next = j + 1 < events.count ? events[j + 1].threshold : event.threshold + 0.5
                    guard next > event.threshold else { continue }
                    let delta = (event.threshold + next) / 2
                    guard abs(delta) <= bound else { continue }
                    if running > best.score + 1e-9 || (abs(running - best.score) <= 1e-9 && abs(delta) < abs(best.delta)) {
                        best = (delta, running)
                    }
                }
                bias[l] = best.score - atZero >= minimumGain ? best.delta : 0
            }
        }
        return bias
    }
}

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
