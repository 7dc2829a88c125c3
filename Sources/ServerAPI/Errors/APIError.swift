import TranslationCore

/// Every failure an endpoint or a middleware reports. A struct over an internal code, so cases
/// can be added without breaking callers; each dialect renders it in its own envelope and status,
/// in one place per dialect (its ``ErrorEnvelope``), by switching over ``code`` — a new case makes
/// every dialect's switch fail to compile until it is mapped.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why a body could not be read; LibreTranslate words some of these itself.
    public enum BodyProblem: Sendable, Equatable {
        /// Not well-formed JSON (or not UTF-8 JSON).
        case invalidJSON
        /// JSON, but not an object.
        case notAnObject
        /// A member or parameter has a value of the wrong type.
        case badValue
        /// Bytes that are not UTF-8 (query string or form).
        case encoding
        /// An encoding this endpoint does not take (JSON on APy, multipart).
        case unsupportedEncoding
    }

    /// What is wrong with a caller's credential.
    public enum CredentialProblem: Sendable, Equatable {
        /// None was given where one is required.
        case missing
        /// One was given but it is not known.
        case invalid
    }

    /// Whose rate limit a request went over: a key's own, or (for callers without a key) the
    /// limit of its client address. Google words the two differently.
    public enum RateLimitScope: Sendable, Equatable {
        case key, address
    }

    /// The classes of failure. Internal (not private) because every dialect's renderer in this
    /// module switches over it; code outside the module uses the constructors below.
    enum Code: Sendable, Equatable {
        case translation(TranslationError)
        case missingParameter(String)
        case malformedBody(BodyProblem)
        case payloadTooLarge(limit: Int)
        case tooManySegments(given: Int, limit: Int)
        case notFound(path: String)
        case methodNotAllowed(method: String, allowed: [String])
        case unauthorized(CredentialProblem)
        case forbidden
        case rateLimited(retryAfter: Int?, scope: RateLimitScope)
        case quotaExceeded(retryAfter: Int?)
        case unavailable(retryAfter: Int?)
    }

    let code: Code
    /// A readable sentence for people; dialects with their own wording (LibreTranslate, DeepL)
    /// use theirs for the classes they define.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The service refused or failed.
    public static func translation(_ error: TranslationError) -> APIError { APIError(.translation(error), error.message) }

    /// A required parameter is absent (or JSON `null`).
    public static func missingParameter(_ name: String) -> APIError {
        APIError(.missingParameter(name), "Missing required field \(name).")
    }

    /// The body or query cannot be decoded: bad JSON, a bad form, invalid UTF-8.
    public static func malformedBody(_ problem: BodyProblem, _ message: String) -> APIError {
        APIError(.malformedBody(problem), message)
    }

    /// The body was over the server's limit and was not read.
    public static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.payloadTooLarge(limit: limit), "Request payload size exceeds the limit: \(limit) bytes.")
    }

    /// More texts than the protocol allows in one request.
    public static func tooManySegments(given: Int, limit: Int) -> APIError {
        APIError(.tooManySegments(given: given, limit: limit), "Too many text segments: \(given) given, at most \(limit) per request.")
    }

    /// Nothing at this path (inside an endpoint: a document or resource that does not exist).
    public static func notFound(path: String) -> APIError {
        APIError(.notFound(path: path), "No endpoint at \(path). Every endpoint is listed at /openapi.json.")
    }

    /// The endpoint exists but not for this method.
    public static func methodNotAllowed(method: String, allowed: [String]) -> APIError {
        APIError(.methodNotAllowed(method: method, allowed: allowed), "\(method) is not allowed here; use \(allowed.joined(separator: " or ")).")
    }

    /// No credential where one is required (`.missing`), or one that is not known (`.invalid`).
    public static func unauthorized(_ problem: CredentialProblem, message: String? = nil) -> APIError {
        APIError(.unauthorized(problem), message ?? (problem == .missing
            ? "This server requires an API key." : "The API key is not valid."))
    }

    /// A known credential that may not do this (wrong origin, endpoint not allowed).
    public static func forbidden(_ message: String) -> APIError { APIError(.forbidden, message) }

    /// Too many requests in a time window; `retryAfter` seconds, when known, goes out as `Retry-After`.
    /// `message` says the limit the way LibreTranslate does (`20 per 1 minute`).
    public static func rateLimited(retryAfter: Int?, scope: RateLimitScope = .key, message: String? = nil) -> APIError {
        APIError(.rateLimited(retryAfter: retryAfter, scope: scope), message ?? "Too many requests; retry later.")
    }

    /// The caller's character quota for the period is used up; `retryAfter`: seconds until the
    /// next period, as `Retry-After`.
    public static func quotaExceeded(_ message: String? = nil, retryAfter: Int? = nil) -> APIError {
        APIError(.quotaExceeded(retryAfter: retryAfter), message ?? "The character quota for this period has been used up.")
    }

    /// The server is not taking new work (shutting down); `retryAfter` seconds when known.
    public static func unavailable(retryAfter: Int? = nil, message: String? = nil) -> APIError {
        APIError(.unavailable(retryAfter: retryAfter), message ?? "The server is shutting down; retry on another replica or later.")
    }

    /// Seconds a client should wait before retrying, for `Retry-After`; nil when not applicable.
    public var retryAfter: Int? {
        switch code {
        case .rateLimited(let seconds, _), .quotaExceeded(let seconds), .unavailable(let seconds): return seconds
        default: return nil
        }
    }

    /// A bounded label for metrics (`missing_parameter`, `unsupported_pair`).
    public var label: String {
        switch code {
        case .translation(let error): return error.shortDescription
        case .missingParameter: return "missing_parameter"
        case .malformedBody: return "malformed_request"
        case .payloadTooLarge: return "payload_too_large"
        case .tooManySegments: return "too_many_segments"
        case .notFound: return "not_found"
        case .methodNotAllowed: return "method_not_allowed"
        case .unauthorized: return "unauthorized"
        case .forbidden: return "forbidden"
        case .rateLimited: return "rate_limited"
        case .quotaExceeded: return "quota_exceeded"
        case .unavailable: return "unavailable"
        }
    }

    /// Wraps any error: a ``TranslationError`` or ``APIError`` as it is, anything else as an
    /// engine failure (never a bare 500 without a message).
    public static func from(_ error: any Error) -> APIError {
        if let api = error as? APIError { return api }
        // A full engine queue is the server refusing work for now: the same 503 (with a
        // Retry-After) as a server that is shutting down, in every dialect's envelope.
        if let translation = error as? TranslationError, translation.kind == .overloaded {
            return .unavailable(retryAfter: 1, message: translation.message)
        }
        if let translation = error as? TranslationError { return .translation(translation) }
        if error is CancellationError { return .translation(TranslationError(.cancelled, "The request was cancelled: the server is shutting down.")) }
        return .translation(TranslationError(.engineFailure, "Internal error: \(error)"))
    }
}
