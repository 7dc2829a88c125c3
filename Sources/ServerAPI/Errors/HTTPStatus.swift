import TranslationCore

/// The HTTP status each ``APIError`` has in a protocol without its own vocabulary for it (APy,
/// AJAX v1's `responseStatus`), and the reason phrases APy writes as `message`.
enum HTTPStatus {
    static func code(for error: APIError) -> Int {
        switch error.code {
        case .missingParameter, .malformedBody, .tooManySegments: return 400
        case .payloadTooLarge: return 413
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .unauthorized: return 401
        case .forbidden: return 403
        case .rateLimited: return 429
        case .quotaExceeded: return 429
        case .unavailable: return 503
        case .translation(let e): return code(for: e.kind)
        }
    }

    /// The status of a service failure: the caller's mistake (400), the engine's (500), or time (503).
    static func code(for kind: TranslationError.Kind) -> Int {
        switch kind {
        case .invalidLanguage, .invalidArgument, .invalidInput, .unableToIdentifyLanguage, .limitExceeded,
             .unsupportedSourceLanguage, .unsupportedTargetLanguage, .unsupportedPair, .notInstalled:
            return 400
        case .engineFailure: return 500
        case .timeout, .cancelled, .overloaded: return 503
        }
    }

    static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Payload Too Large"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Error"
        }
    }
}
