import GlossaWire
import HTTPServer

/// DeepL's error envelope, the one place its errors are rendered: `{"message": "…"}` with DeepL's
/// statuses (400, 403, 404, 413, 429, 456 quota, 5xx), which deepl-python turns into its own
/// exceptions (`AuthorizationException`, `QuotaExceededException`, `TooManyRequestsException`).
enum DeepLError {
    static func response(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        let (status, message) = classify(error)
        return jsonResponse(.object([("message", .string(message))]), status: status, contentType: "application/json")
    }

    static func classify(_ error: APIError) -> (Int, String) {
        let m = error.message
        switch error.code {
        case .missingParameter(let name): return (400, "Parameter '\(name)' not specified.")
        case .malformedBody: return (400, m)
        case .tooManySegments, .payloadTooLarge: return (413, m)
        case .notFound: return (404, m)
        case .methodNotAllowed: return (405, m)
        case .unauthorized: return (403, "Authorization failed. Please supply a valid DeepL-Auth-Key via the Authorization header.")
        case .forbidden: return (403, m)
        case .rateLimited: return (429, "Too many requests. Please wait and resend your request.")
        case .quotaExceeded: return (456, "Quota for this billing period has been exceeded.")
        case .unavailable: return (503, m)
        case .translation(let e):
            switch e.kind {
            case .engineFailure: return (500, m)
            case .timeout: return (504, m)
            case .cancelled, .overloaded: return (503, m)
            default: return (400, m)
            }
        }
    }
}
