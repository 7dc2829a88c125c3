import Foundation

/// What the model says about one text: languages by posterior, and how sure it is.
struct ModelDecision: Sendable, Equatable {
    /// Candidate languages (model indices) with their posteriors, most likely first (at most 3).
    var ranked: [(language: Int, posterior: Float)]
    /// Words scored.
    var words: Int
    /// The calibrated probability that the first language is right.
    var confidence: Float

    static func == (a: ModelDecision, b: ModelDecision) -> Bool {
        a.words == b.words && a.confidence == b.confidence
            && a.ranked.map(\.language) == b.ranked.map(\.language) && a.ranked.map(\.posterior) == b.ranked.map(\.posterior)
    }
}

extension DetectorModel {
    /// Letters scored at most (see ``logLikelihoods(of:candidates:letterLimit:)``).
    static let letterLimit = 300

    /// The model's languages written in the text's dominant script; Japanese alone when kana
    /// make up a tenth of the CJK letters (Chinese has no kana), the Han languages otherwise.
    func candidates(for census: ScriptCensus) -> [Int] {
        guard let dominant = census.dominant else { return [] }
        let kana = census.count(of: .hiragana) + census.count(of: .katakana)
        let cjk = kana + census.count(of: .han)
        let script: WritingScript
        if [.han, .hiragana, .katakana].contains(dominant) {
            script = kana > 0 && kana * 10 >= cjk ? .hiragana : .han
        } else {
            script = dominant
        }
        return languagesByScript[script] ?? []
    }

    /// The temperature for a text of `words` words.
    func temperature(words: Int) -> Float {
        parameters.temperatures[max(0, min(parameters.temperatures.count - 1, words - 1))]
    }

    /// The weight of the languages' log priors for a text of `words` words.
    func priorWeight(words: Int) -> Float {
        parameters.priorWeights[max(0, min(parameters.priorWeights.count - 1, words - 1))]
    }

    /// The calibrated probability of being right for a top posterior, read off the
    /// calibration bins with linear interpolation between bin centres.
    func calibrated(_ posterior: Float) -> Float {
        let bins = parameters.calibration
        let position = max(0, min(Float(bins.count) - 1, posterior * Float(bins.count) - 0.5))
        let lower = Int(position)
        let upper = min(bins.count - 1, lower + 1)
        let t = position - Float(lower)
        return bins[lower] * (1 - t) + bins[upper] * t
    }

    /// Posteriors from summed log-likelihoods, the `top` most likely first: softmax over the
    /// candidates of `score / T + w · log prior + offset + log hint odds`, T and w by word count,
    /// the offset per language (``Parameters/offsets``).
    /// `logHints` is indexed like ``languages`` (nil: no hint).
    func posteriors(scores: [Float], candidates: [Int], words: Int, logHints: [Float]? = nil,
                    top: Int = .max) -> [(language: Int, posterior: Float)] {
        let temperature = self.temperature(words: words)
        let weight = priorWeight(words: words)
        let offsets = parameters.offsets, hasOffsets = !offsets.isEmpty
        // Two passes over the candidates (the peak, then the exponentials) that compute each
        // logit alike, instead of an array of logits per call.
        @inline(__always) func logit(_ language: Int) -> Float {
            scores[language] / temperature + weight * logPriors[language] + (hasOffsets ? offsets[language] : 0) + (logHints?[language] ?? 0)
        }
        guard !candidates.isEmpty else { return [] }
        var peak = -Float.infinity
        for language in candidates { peak = max(peak, logit(language)) }
        var sum: Float = 0
        var best: [(language: Int, posterior: Float)] = []
        best.reserveCapacity(min(top, candidates.count) + 1)
        for language in candidates {
            let e = exp(logit(language) - peak)
            sum += e
            // Keep the `top` largest, by insertion (top is 3 in detection: cheaper than a sort).
            guard best.count < top || e > best[best.count - 1].posterior else { continue }
            let at = best.firstIndex { $0.posterior < e } ?? best.count
            best.insert((language, e), at: at)
            if best.count > top { best.removeLast() }
        }
        for i in best.indices { best[i].posterior /= sum }
        return best
    }

    /// Decides one text; nil when it has no letters of a script the model knows.
    func decide(_ text: String, logHints: [Float]? = nil) -> ModelDecision? {
        let census = ScriptCensus(text)
        let candidates = candidates(for: census)
        guard !candidates.isEmpty else { return nil }
        if candidates.count == 1 {
            // A script of one model language: the script decides; foreign letters are the doubt.
            let share = Float(Set(languages[candidates[0]].scripts).reduce(0) { $0 + census.share(of: $1) })
            let words = max(1, census.letters / 5)
            return ModelDecision(ranked: [(candidates[0], 1)], words: words, confidence: min(1, share) * calibrated(1))
        }
        let (scores, words) = logLikelihoods(of: text, candidates: candidates, letterLimit: Self.letterLimit)
        guard words > 0 else { return nil }
        let ranked = posteriors(scores: scores, candidates: candidates, words: words, logHints: logHints, top: 3)
        return ModelDecision(ranked: ranked, words: words, confidence: calibrated(ranked[0].posterior))
    }
}
