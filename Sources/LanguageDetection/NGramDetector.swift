import Foundation
import TranslationCore

/// The short-text detector: Unicode-script rules, then a naive Bayes n-gram model trained on
/// FLORES-200 (35 languages). Built for the text CLD2 gives up on (a few words), and used by
/// ``CLD2Detector`` as its fallback; usable on its own as well.
///
/// Its results are never more confident than ``maximumConfidence``, since its model knows only
/// 35 languages and was trained on one domain; only a single-language script (Hangul, Greek, …)
/// makes a result reliable.
public struct NGramDetector: LanguageDetector {
    /// Confidence is the model's posterior scaled by this, so a fallback guess always ranks
    /// below a reliable CLD2 answer.
    public static let maximumConfidence = 0.8
    /// Prior odds given to a favoured language (the caller's hint, CLD2's best-effort guess):
    /// enough to tip a close call, not to override the text. On the FLORES hold-out, odds of 10
    /// for CLD2's guess change prefix accuracy by -0.2 to +0.3 points (neutral in domain), while
    /// out of the news domain ("Привет") CLD2's web-trained guess is the better-informed one.
    static let favouredOdds = 10.0
    /// Divides the log-likelihoods before the softmax. Overlapping 1-4-grams count every letter
    /// up to ten times, which makes raw naive Bayes posteriors absurdly sharp.
    static let temperature = Double(NGramFeatures.maxLength)

    private let model: NGramModel

    /// A detector over the committed FLORES-200 profiles.
    public init() { self.model = .shared }

    init(model: NGramModel) { self.model = model }

    /// The languages the n-gram model can tell apart (single-language scripts add more).
    public var modelLanguages: [LanguageCode] { model.languages }

    /// One detection per text, in order. Pure computation of a few microseconds per short text,
    /// so it runs inline; ``CLD2Detector`` moves large batches off the cooperative pool.
    public func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        texts.map { detection(for: $0, hint: hint) }
    }

    /// Detects one text synchronously.
    public func detection(for text: String, hint: LanguageCode?) -> Detection {
        detection(for: text, favouring: [hint].compactMap { $0 })
    }

    /// Detects one text, giving each language in `favoured` prior odds of ``favouredOdds``
    /// (a language listed twice gets the odds squared).
    func detection(for text: String, favouring favoured: [LanguageCode]) -> Detection {
        let census = ScriptCensus(text)
        guard let dominant = census.dominant else { return .unknown }
        let kana = (census.counts[.hiragana] ?? 0) + (census.counts[.katakana] ?? 0)
        let cjk = kana + (census.counts[.han] ?? 0)
        // Japanese mixes kanji with kana; Chinese has no kana. A tenth of kana is unmistakable.
        if [.han, .hiragana, .katakana].contains(dominant), kana > 0, kana * 10 >= cjk {
            return scriptDetection("ja", share: Double(cjk) / Double(census.letters))
        }
        if let language = WritingScript.singleLanguage[dominant] {
            return scriptDetection(language, share: census.share(of: dominant))
        }
        return bayesDetection(text, script: dominant, favoured: favoured)
    }

    private func scriptDetection(_ language: LanguageCode, share: Double) -> Detection {
        // The script settles the language; the share of other scripts is the doubt left.
        Detection(language: language, confidence: Self.maximumConfidence * share, isReliable: share >= 0.8)
    }

    private func bayesDetection(_ text: String, script: WritingScript, favoured: [LanguageCode]) -> Detection {
        let candidates = model.scripts.indices.filter { model.scripts[$0].contains(script) }
        let (scores, grams) = model.scores(text)
        // No profile for this script (Tifinagh, Cherokee, …) or nothing the model knows: no guess.
        guard !candidates.isEmpty, grams > 0 else { return .unknown }
        let logits = candidates.map { column in
            let language = model.languages[column]
            // Match on the base language too, so a hint "zh" favours both Chinese scripts.
            let favours = favoured.count { $0 == language || ($0.isBase && $0.language == language.language) }
            return scores[column] / Self.temperature + Double(favours) * log(Self.favouredOdds)
        }
        let ranked = Self.softmax(logits).enumerated().sorted { $0.element > $1.element }
        let top = ranked.prefix(3).map { (language: model.languages[candidates[$0.offset]], p: $0.element) }
        return Detection(
            language: top[0].language,
            confidence: Self.maximumConfidence * top[0].p,
            isReliable: false,
            alternatives: top.dropFirst().map { .init(language: $0.language, confidence: Self.maximumConfidence * $0.p) }
        )
    }

    static func softmax(_ logits: [Double]) -> [Double] {
        guard let peak = logits.max() else { return [] }
        let exps = logits.map { exp($0 - peak) }
        let sum = exps.reduce(0, +)
        return exps.map { $0 / sum }
    }
}
