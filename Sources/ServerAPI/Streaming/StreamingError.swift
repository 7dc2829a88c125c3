import GlossaWire
import HTTPServer
import TranslationCore

/// How the streaming endpoints report errors, in one place: a refused batch gets Google's error
/// envelope (so generic clients read it) with a ``StreamErrorReason`` as `errors[0].reason` (so
/// TranslationKit maps it to Apple's error); a failed text gets a `StreamError` on its line.
enum StreamingError {
    /// The error line payload for one failed text.
    static func wire(_ error: TranslationError) -> StreamError {
        StreamError(code: HTTPStatus.code(for: error.kind), reason: StreamErrorReason(error.kind), message: error.message)
    }

    /// The stable reason for any refusal.
    static func reason(_ error: APIError) -> StreamErrorReason {
        switch error.code {
        case .translation(let translation): return StreamErrorReason(translation.kind)
        case .missingParameter: return .missingParameter
        case .malformedBody, .notFound, .methodNotAllowed: return .malformedRequest
        case .payloadTooLarge: return .payloadTooLarge
        case .tooManySegments: return .tooManySegments
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        case .rateLimited: return .rateLimited
        case .quotaExceeded: return .quotaExceeded
        case .unavailable: return .unavailable
        }
    }

    /// The response for a refused batch.
    static func response(for error: APIError) -> HTTPResponse {
        let c = GoogleV2Error.classify(error)
        let body = GoogleV2Wire.ErrorResponse(code: c.code, message: error.message, domain: "glossa",
                                              reason: reason(error).rawValue, status: c.status)
        return jsonResponse(body.json, status: c.code)
    }
}
