import TranslationCore

/// Every failure an endpoint reports. Each wire protocol renders these in its own envelope, in
/// one place per protocol (`GoogleV2Error`, `AjaxEnvelope`, `APyEnvelope`).
public enum APIError: Error, Sendable {
    /// The service refused or failed.
    case translation(TranslationError)
    /// A required parameter is absent (or JSON `null`).
    case missingParameter(String)
    /// The body or query cannot be decoded: bad JSON, a bad form, invalid UTF-8.
    case malformedBody(String)
    /// The body was over the server's limit and was not read.
    case payloadTooLarge(limit: Int)
    /// More texts than the protocol allows in one request.
    case tooManySegments(given: Int, limit: Int)
    /// No endpoint at this path.
    case notFound(path: String)
    /// The endpoint exists but not for this method.
    case methodNotAllowed(method: String, allowed: [String])

    /// A bounded label for metrics (`missing_parameter`, `unsupported_pair`).
    public var label: String {
        switch self {
        case .translation(let error): return error.shortDescription
        case .missingParameter: return "missing_parameter"
        case .malformedBody: return "malformed_request"
        case .payloadTooLarge: return "payload_too_large"
        case .tooManySegments: return "too_many_segments"
        case .notFound: return "not_found"
        case .methodNotAllowed: return "method_not_allowed"
        }
    }

    /// A readable sentence for people.
    public var message: String {
        switch self {
        case .translation(let error): return error.message
        case .missingParameter(let name): return "Missing required field \(name)."
        case .malformedBody(let message): return message
        case .payloadTooLarge(let limit): return "Request payload size exceeds the limit: \(limit) bytes."
        case .tooManySegments(let given, let limit): return "Too many text segments: \(given) given, at most \(limit) per request."
        case .notFound(let path): return "No endpoint at \(path). See /openapi.json for the endpoints."
        case .methodNotAllowed(let method, let allowed): return "\(method) is not allowed here; use \(allowed.joined(separator: " or "))."
        }
    }

    /// Wraps any error: a ``TranslationError`` or ``APIError`` as it is, anything else as an
    /// engine failure (never a bare 500 without a message).
    static func from(_ error: any Error) -> APIError {
        if let api = error as? APIError { return api }
        if let translation = error as? TranslationError { return .translation(translation) }
        if error is CancellationError { return .translation(TranslationError(.cancelled, "The request was cancelled: the server is shutting down.")) }
        return .translation(TranslationError(.engineFailure, "Internal error: \(error)"))
    }
}
