import Dispatch
import TranslationCore

/// Glossa's language detector: the text's words without the parts that are no language (URLs,
/// e-mail addresses, numbers, code, symbols: ``LanguageContent``), then ``ModelDetector``, with
/// CLD2 (Debian's libcld2, full tables, 160+ languages) for long text in a language the model
/// lacks.
///
/// ```swift
/// let detector = GlossaDetector()
/// let results = await detector.detect(["Hello there!!!", "Bonjour tout le monde"])
/// results[0].language   // en
/// ```
///
/// Confidence is the probability that the answer is right, calibrated on held-back data and
/// scaled down by the share of the input that is no language; `isReliable` is confidence ≥
/// ``ModelDetector/reliableConfidence``. Text with no language in it is `Detection.unknown`
/// (`und` on the wire). `make detect-accuracy` measures both.
public struct GlossaDetector: LanguageDetector {
    /// CLD2 is asked about text with at least this many letters: below it, CLD2 is no match for
    /// the model (lingua's report: 34 % on single words), and its call would cost time for nothing.
    static let cld2Letters = 80
    /// Code, listings and symbols with a few words in them (``LanguageContent/looksLikeCode``):
    /// their answer is at most this confident, and never reliable.
    static let lowContentConfidence = 0.3

    /// The CLD2 library's version text, for `--version` output and diagnostics.
    public static var cld2Version: String { CLD2.version }

    /// Glossa's own model.
    public let model: ModelDetector
    /// Batches of at most ``inlineTextLimit`` texts and this many UTF-8 bytes run inline on the
    /// caller's task; larger ones go to a Dispatch queue. Default 16 KiB.
    public let inlineByteLimit: Int
    /// See ``inlineByteLimit``. Default 8 texts.
    public let inlineTextLimit: Int

    /// The detector over the embedded model.
    /// - Parameters:
    ///   - model: Glossa's model detector.
    ///   - inlineByteLimit: see ``inlineByteLimit``.
    ///   - inlineTextLimit: see ``inlineTextLimit``.
    public init(model: ModelDetector = ModelDetector(), inlineByteLimit: Int = 16 * 1024, inlineTextLimit: Int = 8) {
        self.model = model
        self.inlineByteLimit = inlineByteLimit
        self.inlineTextLimit = inlineTextLimit
    }

    /// One detection per text, in order.
    public func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        // A detection costs ~5-40 µs (the model reads at most 300 letters; CLD2 ~1 ms per 30 KB),
        // so 8 texts and 16 KiB cost well under a millisecond and run inline. Anything bigger
        // (a 1 MB document is ~30 ms of CLD2) would hold one of the few cooperative threads for
        // long, so it runs on Dispatch's pool, where blocking work belongs.
        let bytes = texts.reduce(0) { $0 + $1.utf8.count }
        if texts.count <= inlineTextLimit && bytes <= inlineByteLimit {
            return texts.map { detection(for: $0, hint: hint) }
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: texts.map { detection(for: $0, hint: hint) })
            }
        }
    }

    /// Detects one text synchronously (blocking; see ``detect(_:hint:)`` for the async path).
    public func detection(for text: String, hint: LanguageCode?) -> Detection {
        let content = LanguageContent(text)
        guard content.letters > 0 else { return .unknown }
        var detection = model.detection(for: content.text, hint: hint)
        if content.letters >= Self.cld2Letters, let cld2 = cld2Answer(content.text, hint: hint, over: detection) {
            detection = cld2
        }
        guard detection.language != nil else { return .unknown }
        if content.looksLikeCode {
            detection.confidence = min(detection.confidence, Self.lowContentConfidence * min(1, content.share))
            detection.isReliable = false
            detection.alternatives = detection.alternatives.map { .init(language: $0.language, confidence: min($0.confidence, detection.confidence)) }
        }
        return detection
    }

    /// CLD2's reliable answer when it names a language the model lacks (Nepali, Kurdish, …) or the
    /// model has no answer: on long text CLD2 is accurate, and the model cannot name a language
    /// it has no data for. Its confidence is CLD2's share of the text, capped below the model's
    /// reliable answers.
    private func cld2Answer(_ text: String, hint: LanguageCode?, over detection: Detection) -> Detection? {
        let result = CLD2.detect(text, hint: hint.map(CLD2Codes.cld2Code(for:)))
        guard result.isReliable, let top = result.candidates.first, let language = CLD2Codes.language(fromCLD2: top.code),
              detection.language == nil || !model.models(language) else { return nil }
        let confidence = min(0.85, Double(top.percent) / 100)
        return Detection(language: language, confidence: confidence, isReliable: false)
    }
}

extension GlossaDetector {
    /// CLD2 alone, in its best-effort mode (a guess even on text too short for its reliability
    /// rules), without Glossa's model: the peer that `make detect-accuracy` and the benchmark
    /// measure beside Glossa. Confidence is CLD2's share of the text.
    public static func cld2BestEffort(_ text: String) -> Detection {
        let result = CLD2.detect(text, bestEffort: true)
        guard let top = result.candidates.first, let language = CLD2Codes.language(fromCLD2: top.code) else { return .unknown }
        return Detection(language: language, confidence: Double(top.percent) / 100, isReliable: result.isReliable)
    }
}

/// Source compatibility: the detector was called `CLD2Detector` before it had a model of its own.
@available(*, deprecated, renamed: "GlossaDetector")
public typealias CLD2Detector = GlossaDetector
