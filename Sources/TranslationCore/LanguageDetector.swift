/// One detection: the most likely language of one input.
public struct Detection: Sendable, Equatable {
    /// The detected language, or nil when there is no sensible guess (empty or symbol-only text).
    public var language: LanguageCode?
    /// Confidence in 0...1.
    public var confidence: Double
    /// Whether the detector considers the result reliable.
    public var isReliable: Bool
    /// Other candidates with their confidences, most likely first (may be empty).
    public var alternatives: [Alternative]

    /// Another candidate language.
    public struct Alternative: Sendable, Equatable {
        /// The candidate.
        public var language: LanguageCode
        /// Its confidence in 0...1.
        public var confidence: Double

        /// Makes an alternative.
        public init(language: LanguageCode, confidence: Double) {
            self.language = language
            self.confidence = confidence
        }
    }

    /// Makes a detection.
    public init(language: LanguageCode?, confidence: Double, isReliable: Bool, alternatives: [Alternative] = []) {
        self.language = language
        self.confidence = confidence
        self.isReliable = isReliable
        self.alternatives = alternatives
    }

    /// The result for text with nothing to detect.
    public static let unknown = Detection(language: nil, confidence: 0, isReliable: false)
}

/// Detects the language of texts: batch in, batch out, exactly one result per input, in order.
public protocol LanguageDetector: Sendable {
    /// One ``Detection`` per input, in input order. `hint` (when given) is a language the caller
    /// expects, which a detector may favour on short or ambiguous text.
    func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection]
}

extension LanguageDetector {
    /// Detects without a hint.
    public func detect(_ texts: [String]) async -> [Detection] { await detect(texts, hint: nil) }
}
