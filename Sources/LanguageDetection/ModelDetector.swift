import Foundation
import TranslationCore

/// Glossa's own language detector: script rules, then the embedded model (a character model
/// and a word model per language, see ``DetectorModel``) among the languages of the text's
/// script, with a decision rule and calibration learned on held-back data.
///
/// It knows every language lingua knows (Latin from the Clementine Vulgate, the others from
/// FLORES-200, word lists and Debian dictionaries), and every language an Apertium pair translates
/// (``modelLanguages``); scripts of one language outside the
/// model (Lao, Khmer, …) are named by ``WritingScript/singleLanguage``. ``GlossaDetector`` adds
/// CLD2 for long text in languages outside the model, and the filter for non-language input.
///
/// Confidence is the calibrated probability that the answer is right, measured on held-back
/// lines (`make detector-profiles` prints the reliability diagram).
public struct ModelDetector: LanguageDetector {
    /// Prior odds for the caller's hint: enough to tip a close call, not to override the text.
    public static let hintOdds: Float = 10
    /// Answers at least this confident are marked reliable.
    public static let reliableConfidence = 0.9

    let model: DetectorModel
    /// The model's languages as ``LanguageCode``s, indexed like the model's.
    let codes: [LanguageCode]

    /// The detector over the embedded model.
    public init() { self.init(model: .embedded) }

    init(model: DetectorModel) {
        self.model = model
        self.codes = model.languages.map { (try? LanguageCode(parsing: $0.code)) ?? LanguageCode(stringLiteral: "und") }
    }

    /// Bytes the model's tables take in memory (shared by every detector instance and thread;
    /// scoring allocates a few kilobytes of scratch per call on top).
    public var modelMemoryBytes: Int { model.byteCount }

    /// The languages the model tells apart.
    public var modelLanguages: [LanguageCode] { codes }

    /// Whether the model has the language (any script or region of it).
    public func models(_ language: LanguageCode) -> Bool {
        codes.contains { $0.language == language.language }
    }

    /// One detection per text, in order. Pure computation of a few microseconds per short text;
    /// ``GlossaDetector`` moves large batches off the cooperative pool.
    public func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        texts.map { detection(for: $0, hint: hint) }
    }

    /// Detects one text synchronously.
    public func detection(for text: String, hint: LanguageCode?) -> Detection {
        if let decision = model.decide(text, logHints: logHints(hint)) {
            let confidence = Double(decision.confidence)
            let top = decision.ranked[0]
            return Detection(
                language: codes[top.language], confidence: confidence, isReliable: confidence >= Self.reliableConfidence,
                alternatives: decision.ranked.dropFirst().map {
                    .init(language: codes[$0.language], confidence: min(confidence, Double($0.posterior)))
                })
        }
        // A script no model language uses, but one language writes (Lao, Khmer, Sinhala, …).
        let census = ScriptCensus(text)
        if let script = census.dominant, let language = WritingScript.singleLanguage[script] {
            let share = census.share(of: script)
            return Detection(language: language, confidence: share, isReliable: share >= Self.reliableConfidence)
        }
        return .unknown
    }

    /// Log prior odds per model language: the hint's odds for every language it names (a base
    /// code such as `zh` names every script of it).
    func logHints(_ hint: LanguageCode?) -> [Float]? {
        guard let hint else { return nil }
        let boost = log(Self.hintOdds)
        return codes.map { code in
            code == hint || (hint.isBase && code.language == hint.language) || (code.isBase && code.language == hint.language && hint.script == nil)
                ? boost : 0
        }
    }
}

extension DetectorModel {
    /// The model embedded at build time (Data/detector.model), decoded on first use (Swift runs
    /// a static initializer once, thread-safely).
    static let embedded: DetectorModel = {
        guard let literal = EmbeddedDataFiles.base64["detector.model"] else {
            preconditionFailure("Data/detector.model was not embedded: run `make detector-profiles`")
        }
        let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        do {
            guard let data = Data(base64Encoded: text) else { throw ModelFormatError("not base64") }
            return try DetectorModel(bytes: [UInt8](data))
        } catch {
            // The data is generated and compiled in; failing to read it is a build defect.
            preconditionFailure("Data/detector.model is malformed: \(error)")
        }
    }()
}
