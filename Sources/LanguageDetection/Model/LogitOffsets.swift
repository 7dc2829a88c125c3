import Foundation

/// Learns the decision rule's per-language logit offsets (``DetectorModel/Parameters/offsets``)
/// from held-back texts, so that the weighted share answered right is as high as it gets (the
/// trainer weighs the mean over languages, lingua's protocol, with the share of the world's
/// writers). A language the others swallow (Galician between Spanish and Portuguese) gets a
/// higher offset, and one that swallows them a lower one: the offsets move the boundary between
/// close languages to where the held-back text says it lies, which the priors and the
/// temperatures cannot do. Used by the trainer (tests/tools/detector-model), not at run time.
///
/// Coordinate ascent, exact per step: with every other offset fixed, whether a text comes out
/// right depends on the offset `δ` of language `l` through one threshold (its truth `l` wins iff
/// `x + δ` passes the best other logit; a truth that is the best other loses iff `l` passes it),
/// so the best `δ` is found by sweeping the sorted thresholds.
struct LogitOffsets {
    /// One held-back text: its candidates' logits before any offset, the right language, and
    /// its weight in the objective.
    struct Sample {
        var candidates: [Int]
        /// Indexed like ``candidates``.
        var logits: [Float]
        var truth: Int
        var weight: Double
    }

    /// The largest offset, in logits: beyond it a language would win texts it scores far worse on.
    var bound: Float = 3
    /// Passes over the languages.
    var passes = 4
    /// An offset must gain at least this much of the objective over 0 to be taken at all; among
    /// offsets that score alike, the one nearest 0 is kept. (The trainer weighs a language's
    /// texts of one kind about 1, so 0.005 is half a point of one language's share right.)
    var minimumGain = 0.005

    /// One offset per language (0 for a language no sample names).
    func learn(_ samples: [Sample], languages: Int) -> [Float] {
        var offsets = [Float](repeating: 0, count: languages)
        var samplesOf = [[Int]](repeating: [], count: languages)
        for (i, sample) in samples.enumerated() { for c in sample.candidates { samplesOf[c].append(i) } }
        for _ in 0..<passes {
            for l in 0..<languages where !samplesOf[l].isEmpty {
                offsets[l] = bestOffset(of: l, in: samplesOf[l], of: samples, offsets: offsets)
            }
        }
        return offsets
    }

    /// The best offset of language `l`, from the `samples` at `indices` (those naming `l`),
    /// with the others' `offsets` fixed.
    private func bestOffset(of l: Int, in indices: [Int], of samples: [Sample], offsets: [Float]) -> Float {
        // Per text that `l` can change: the threshold on δ and the weight right above it (+) or
        // below it (−); `alwaysBelow` is the weight right at δ = −∞.
        var events: [(threshold: Float, weight: Double)] = []
        var alwaysBelow = 0.0
        for i in indices {
            let sample = samples[i]
            var other = -Float.infinity, otherLanguage = -1, own: Float = 0
            for (k, c) in sample.candidates.enumerated() {
                if c == l { own = sample.logits[k]; continue }
                let value = sample.logits[k] + offsets[c]
                if value > other { other = value; otherLanguage = c }
            }
            if sample.truth == l {
                events.append((other - own, sample.weight))
            } else if sample.truth == otherLanguage {
                alwaysBelow += sample.weight
                events.append((other - own, -sample.weight))
            }
            // Any other truth is wrong whatever δ is.
        }
        events.sort { $0.threshold < $1.threshold }
        var atZero = alwaysBelow
        for event in events where event.threshold < 0 { atZero += event.weight }
        // Candidates: the midpoint after each distinct threshold (never on one, so never a tie).
        var best = (delta: Float(0), score: atZero)
        var running = alwaysBelow
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
        return best.score - atZero >= minimumGain ? best.delta : 0
    }
}
