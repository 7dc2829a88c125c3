import GlossaWire
import HTTPServer
import TranslationCore

/// How the streaming endpoints report errors, in one place: a refused batch gets Google's error
/// envelope (so generic clients read it) with Glossa's error kind as `errors[0].reason` (so
/// TranslationKit can map it to Apple's error); a failed text gets a `StreamError` on its line.
enum StreamingError {
    /// The error line payload for one failed text.
    static func wire(_ error: TranslationError) -> StreamError {
        StreamError(code: GoogleV2Error.classify(.translation(error)).0, reason: error.kind.rawValue, message: error.message)
    }

    /// The response for a refused batch.
    static func response(for error: APIError) -> HTTPResponse {
        let (code, _, status) = GoogleV2Error.classify(error)
        let reason: String
        if case .translation(let translation) = error { reason = translation.kind.rawValue } else { reason = error.label }
        let body: JSON = .object([("error", .object([
            ("code", .int(code)),
            ("message", .string(error.message)),
            ("errors", .array([.object([("message", .string(error.message)), ("domain", .string("glossa")), ("reason", .string(reason))])])),
            ("status", .string(status)),
        ]))])
        return jsonResponse(body, status: code)
    }
}
