import Dispatch
import TranslationCore

/// Glossa's language detector: CLD2 (Debian's libcld2, full tables, 160+ languages) for text it
/// is sure about, and ``NGramDetector`` for the short text CLD2 calls unknown or unreliable
/// (with CLD2's best-effort guess as a prior), or reliable on too little text to be sure.
///
/// ```swift
/// let detector = CLD2Detector()
/// let results = await detector.detect(["Hello there!!!", "Bonjour tout le monde"])
/// results[0].language   // en
/// ```
///
/// Confidence: for a reliable CLD2 answer, the share of the text in that language (CLD2's
/// percent / 100); for a fallback answer at most ``NGramDetector/maximumConfidence``; for CLD2's
/// own unreliable guess (only when the fallback has none) at most ``unreliableConfidence``.
public struct CLD2Detector: LanguageDetector {
    /// Cap on the confidence of CLD2's unreliable guesses: below every fallback answer.
    public static let unreliableConfidence = 0.3
    /// Below this many letter bytes, CLD2's reliable answers are cross-checked by the fallback.
    static let shortTextBytes = 50

    /// The short-text fallback.
    public let fallback: NGramDetector
    /// Batches of at most this many UTF-8 bytes run inline on the caller's task; larger ones go
    /// to a Dispatch queue. Default 64 KiB.
    public let inlineByteLimit: Int

    /// A detector with the FLORES n-gram fallback.
    /// - Parameter inlineByteLimit: see ``inlineByteLimit``.
    public init(fallback: NGramDetector = NGramDetector(), inlineByteLimit: Int = 64 * 1024) {
        self.fallback = fallback
        self.inlineByteLimit = inlineByteLimit
    }

    /// One detection per text, in order.
    public func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        // CLD2 scores about 30 KB per millisecond (its README), and the fallback only sees short
        // or unreliable text, so a batch under 64 KiB costs a couple of milliseconds: as cheap as
        // a hop to another thread, so it runs inline. A bigger batch (a 1 MB document is ~30 ms)
        // would hold one of the few cooperative threads for long, so it runs on Dispatch's pool,
        // where blocking work belongs, and this task waits without holding a thread.
        let bytes = texts.reduce(0) { $0 + $1.utf8.count }
        if bytes <= inlineByteLimit { return texts.map { detection(for: $0, hint: hint) } }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: texts.map { detection(for: $0, hint: hint) })
            }
        }
    }

    /// Detects one text synchronously (blocking; see ``detect(_:hint:)`` for the async path).
    public func detection(for text: String, hint: LanguageCode?) -> Detection {
        let cld2Hint = hint.map(CLD2Codes.cld2Code(for:))
        let result = CLD2.detect(text, hint: cld2Hint)
        if result.isReliable, let reliable = Self.detection(from: result, cap: 1, reliable: true) {
            return crossChecked(reliable, text: text, scoredBytes: result.textBytes, hint: hint)
        }
        // CLD2's best-effort guess informs the fallback (as a prior) and stands in for it where
        // the fallback has no model: it knows 35 languages and the single-language scripts.
        let bestEffort = CLD2.detect(text, hint: cld2Hint, bestEffort: true)
        let cld2Guess = bestEffort.candidates.first.flatMap { CLD2Codes.language(fromCLD2: $0.code) }
        let guess = fallback.detection(for: text, favouring: [hint, cld2Guess].compactMap { $0 })
        if guess.language != nil { return guess }
        return Self.detection(from: bestEffort, cap: Self.unreliableConfidence, reliable: false) ?? .unknown
    }

    /// CLD2 calls short text reliable more often than it should (close pairs: Bosnian and
    /// Croatian, Danish and Bokmål, Asturian, which it lacks, as Spanish). Under
    /// ``shortTextBytes`` letters, when the fallback models CLD2's language, the fallback decides
    /// with CLD2's answer as a prior: agreement keeps CLD2's reliable result, disagreement gives
    /// the fallback's (unreliable) one. On FLORES hold-out prefixes this gains 1 to 4 points
    /// (2 words to 20 characters) and changes nothing on full sentences.
    private func crossChecked(_ reliable: Detection, text: String, scoredBytes: Int, hint: LanguageCode?) -> Detection {
        guard scoredBytes < Self.shortTextBytes, let language = reliable.language,
              fallback.modelLanguages.contains(language) else { return reliable }
        let check = fallback.detection(for: text, favouring: [hint, language].compactMap { $0 })
        guard let other = check.language, other != language else { return reliable }
        return check
    }

    /// Maps CLD2's candidates; nil when the top one names no language Glossa knows.
    static func detection(from result: CLD2.Result, cap: Double, reliable: Bool) -> Detection? {
        let mapped = result.candidates.compactMap { candidate in
            CLD2Codes.language(fromCLD2: candidate.code).map { ($0, cap * min(1, Double(candidate.percent) / 100)) }
        }
        guard let first = mapped.first, first.1 > 0 || !reliable else { return nil }
        return Detection(
            language: first.0, confidence: first.1, isReliable: reliable,
            alternatives: mapped.dropFirst().map { Detection.Alternative(language: $0.0, confidence: $0.1) }
        )
    }
}
