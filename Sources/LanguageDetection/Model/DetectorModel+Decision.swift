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
        let kana = (census.counts[.hiragana] ?? 0) + (census.counts[.katakana] ?? 0)
        let cjk = kana + (census.counts[.han] ?? 0)
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

    /// Posteriors from summed log-likelihoods: softmax of `score / T + log prior` over the
    /// candidates. `logPriors` is indexed like ``languages`` (nil: uniform).
    func posteriors(scores: [Float], candidates: [Int], words: Int, logPriors: [Float]? = nil) -> [(language: Int, posterior: Float)] {
        let temperature = self.temperature(words: words)
        let logits = candidates.map { scores[$0] / temperature + (logPriors?[$0] ?? 0) }
        guard let peak = logits.max() else { return [] }
        let exps = logits.map { exp($0 - peak) }
        let sum = exps.reduce(0, +)
        return zip(candidates, exps).map { ($0, $1 / sum) }.sorted { $0.1 > $1.1 }
    }

    /// Decides one text; nil when it has no letters of a script the model knows.
    func decide(_ text: String, logPriors: [Float]? = nil) -> ModelDecision? {
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
        let ranked = posteriors(scores: scores, candidates: candidates, words: words, logPriors: logPriors)
        return ModelDecision(ranked: Array(ranked.prefix(3)), words: words, confidence: calibrated(ranked[0].posterior))
    }
}
