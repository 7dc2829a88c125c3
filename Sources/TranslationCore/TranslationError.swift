/// Every failure Glossa reports. A struct over a private code enum (so cases can be added without
/// breaking callers); each wire protocol maps ``kind`` to its own envelope in one place.
public struct TranslationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure, for protocol mappings, exit codes and metric labels.
    public enum Kind: String, Sendable, CaseIterable {
        /// A language code is malformed or unknown.
        case invalidLanguage
        /// A parameter has a value that is not accepted.
        case invalidArgument
        /// The input text cannot be processed (for example invalid UTF-8).
        case invalidInput
        /// No engine serves the source language.
        case unsupportedSourceLanguage
        /// No engine serves the target language.
        case unsupportedTargetLanguage
        /// Both languages are known but no direct or pivot path joins them.
        case unsupportedPair
        /// Detection found no language to translate from.
        case unableToIdentifyLanguage
        /// A limit (texts per request, characters) was exceeded.
        case limitExceeded
        /// The engine failed, even after a retry on a fresh pipeline.
        case engineFailure
        /// The request passed its deadline.
        case timeout
        /// The service is shutting down or the caller cancelled.
        case cancelled
        /// The language pair is known but not installed on this machine.
        case notInstalled
        /// The engine's queue is full: the request was not started; retry shortly (HTTP 503).
        case overloaded
    }

    /// The class of failure.
    public let kind: Kind
    /// A readable sentence for people: what was given, what went wrong, what is accepted.
    public let message: String

    /// Makes an error of `kind` with `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// A bounded label for metrics and logs (`unsupported_pair`).
    public var shortDescription: String {
        kind.rawValue.reduce(into: "") { out, ch in
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
    }

    /// A malformed or unknown language code.
    public static func invalidLanguage(_ given: String, reason: String) -> TranslationError {
        TranslationError(.invalidLanguage,
            "Invalid language code '\(given)': \(reason). Accepted: \(LanguageCodeParser.acceptedForms).")
    }

    /// A parameter value that is not accepted.
    public static func invalidArgument(_ name: String, given: String, accepted: String) -> TranslationError {
        TranslationError(.invalidArgument, "Invalid value '\(given)' for \(name). Accepted: \(accepted).")
    }

    /// A pair that no installed engine serves, listing what is available.
    public static func unsupportedPair(_ pair: LanguagePair, available: [LanguagePair]) -> TranslationError {
        let list = available.sorted().map { "\($0.source.bcp47)-\($0.target.bcp47)" }
        let shown = list.prefix(40).joined(separator: ", ") + (list.count > 40 ? ", …" : "")
        return TranslationError(.unsupportedPair,
            "No translation from \(pair.source.displayName()) (\(pair.source.bcp47)) to \(pair.target.displayName()) (\(pair.target.bcp47)) is installed. Available: \(shown.isEmpty ? "none" : shown).")
    }
}
