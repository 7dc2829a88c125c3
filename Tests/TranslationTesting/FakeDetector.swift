import Synchronization
import TranslationCore

/// The one fake detector for unit tests: rules tried in order, the first that answers wins, and
/// every text it was given is remembered (so a test sees what detection read).
public final class FakeDetector: LanguageDetector {
    /// One way of answering.
    public enum Rule: Sendable {
        /// A `lang:` prefix names the language (confidence 0.9, reliable): `es: hola` is Spanish.
        case prefix
        /// Exact texts (compared with runs of spaces collapsed and none at either end) and their detections.
        case table([String: Detection])
        /// Text containing the word gets the detection.
        case containing(String, Detection)
        /// Any text gets the detection.
        case otherwise(Detection)
    }

    /// The rules, first match wins; no match is ``Detection/unknown``.
    public let rules: [Rule]
    private let seenTexts = Mutex<[String]>([])

    /// Makes a detector with `rules`.
    public init(_ rules: [Rule]) { self.rules = rules }

    /// Reads the language from a `lang:` prefix, and knows nothing otherwise.
    public static var prefix: FakeDetector { FakeDetector([.prefix]) }

    /// Every text given to ``detect(_:hint:)``, in order.
    public var seen: [String] { seenTexts.withLock { $0 } }

    public func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        seenTexts.withLock { $0 += texts }
        return texts.map(detect)
    }

    private func detect(_ text: String) -> Detection {
        // Why: the protocol's "no sensible guess" for empty text, whatever the rules say.
        if text.isEmpty { return .unknown }
        for rule in rules {
            switch rule {
            case .prefix:
                if let colon = text.firstIndex(of: ":"), let code = try? LanguageCode(parsing: String(text[..<colon])) {
                    return Detection(language: code, confidence: 0.9, isReliable: true)
                }
            case .table(let answers):
                if let answer = answers[text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")] {
                    return answer
                }
            case .containing(let word, let answer):
                if text.contains(word) { return answer }
            case .otherwise(let answer):
                return answer
            }
        }
        return .unknown
    }
}
