import TranslationCore

/// Why a text (or a whole batch) of `POST /glossa/v1/translate/stream` failed, as a stable wire
/// string: the server writes it in an error line's `error.reason` (and in a refused batch's
/// `errors[0].reason`), and TranslationKit maps it to Apple's `TranslationError`.
///
/// Why spelled out here and not taken from Swift case names: a wire string is a contract with
/// clients already deployed. Renaming a Swift case must not change what goes on the wire, so each
/// string is written once, below, and `WireTests` pins every one of them.
public struct StreamErrorReason: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The string on the wire.
    public let rawValue: String

    /// Wraps a wire string (unknown strings are kept: a newer server may send new reasons).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A reason from its wire string (`"unsupportedPair"`).
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The wire string.
    public var description: String { rawValue }

    /// A language code is malformed or unknown.
    public static let invalidLanguage = StreamErrorReason(rawValue: "invalidLanguage")
    /// A parameter has a value that is not accepted.
    public static let invalidArgument = StreamErrorReason(rawValue: "invalidArgument")
    /// The text cannot be processed (for example invalid UTF-8).
    public static let invalidInput = StreamErrorReason(rawValue: "invalidInput")
    /// No engine serves the source language.
    public static let unsupportedSourceLanguage = StreamErrorReason(rawValue: "unsupportedSourceLanguage")
    /// No engine serves the target language.
    public static let unsupportedTargetLanguage = StreamErrorReason(rawValue: "unsupportedTargetLanguage")
    /// Both languages are known but nothing joins them.
    public static let unsupportedPair = StreamErrorReason(rawValue: "unsupportedPair")
    /// Detection found no language to translate from.
    public static let unableToIdentifyLanguage = StreamErrorReason(rawValue: "unableToIdentifyLanguage")
    /// A limit (texts per request, characters) was exceeded.
    public static let limitExceeded = StreamErrorReason(rawValue: "limitExceeded")
    /// The engine failed.
    public static let engineFailure = StreamErrorReason(rawValue: "engineFailure")
    /// The text passed its deadline.
    public static let timeout = StreamErrorReason(rawValue: "timeout")
    /// The server is shutting down, or the batch was cancelled.
    public static let cancelled = StreamErrorReason(rawValue: "cancelled")
    /// The pair is known but not installed on the server.
    public static let notInstalled = StreamErrorReason(rawValue: "notInstalled")
    /// A refused batch: a required field is missing.
    public static let missingParameter = StreamErrorReason(rawValue: "missing_parameter")
    /// A refused batch: the body is not the JSON the endpoint takes.
    public static let malformedRequest = StreamErrorReason(rawValue: "malformed_request")
    /// A refused batch: the body is over the server's size limit.
    public static let payloadTooLarge = StreamErrorReason(rawValue: "payload_too_large")
    /// A refused batch: more texts than one request may carry.
    public static let tooManySegments = StreamErrorReason(rawValue: "too_many_segments")
    /// A refused batch: no credential, or one the server does not accept.
    public static let unauthorized = StreamErrorReason(rawValue: "unauthorized")
    /// A refused batch: the credential is not allowed to do this.
    public static let forbidden = StreamErrorReason(rawValue: "forbidden")
    /// A refused batch: too many requests; retry later.
    public static let rateLimited = StreamErrorReason(rawValue: "rate_limited")
    /// A refused batch: the caller's character quota is used up.
    public static let quotaExceeded = StreamErrorReason(rawValue: "quota_exceeded")
    /// A refused batch: the server is not taking new work (shutting down).
    public static let unavailable = StreamErrorReason(rawValue: "unavailable")

    /// Every reason this version writes, for documentation and tests.
    public static let all: [StreamErrorReason] = [
        .invalidLanguage, .invalidArgument, .invalidInput, .unsupportedSourceLanguage, .unsupportedTargetLanguage,
        .unsupportedPair, .unableToIdentifyLanguage, .limitExceeded, .engineFailure, .timeout, .cancelled, .notInstalled,
        .missingParameter, .malformedRequest, .payloadTooLarge, .tooManySegments, .unauthorized, .forbidden,
        .rateLimited, .quotaExceeded, .unavailable,
    ]

    /// The reason for a service error: the one mapping from Glossa's error kinds to the wire.
    public init(_ kind: TranslationError.Kind) {
        switch kind {
        case .invalidLanguage: self = .invalidLanguage
        case .invalidArgument: self = .invalidArgument
        case .invalidInput: self = .invalidInput
        case .unsupportedSourceLanguage: self = .unsupportedSourceLanguage
        case .unsupportedTargetLanguage: self = .unsupportedTargetLanguage
        case .unsupportedPair: self = .unsupportedPair
        case .unableToIdentifyLanguage: self = .unableToIdentifyLanguage
        case .limitExceeded: self = .limitExceeded
        case .engineFailure: self = .engineFailure
        case .timeout: self = .timeout
        case .cancelled: self = .cancelled
        case .notInstalled: self = .notInstalled
        // A full engine queue: the server is not taking this work now (retry).
        case .overloaded: self = .unavailable
        }
    }
}
