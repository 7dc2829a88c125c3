import GlossaWire
import HTTPServer
import TranslationCore

/// Apertium APy's conventions, the one place its answers and errors are rendered: JSON with raw
/// UTF-8 and `</` written `<\/`, real HTTP statuses, errors as
/// `{"status": "error", "code", "message", "explanation"}`, JSONP via `callback`.
enum APyEnvelope {
    static func errorResponse(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        errorResponse(for: error)
    }

    static func errorResponse(for error: APIError) -> HTTPResponse {
        let code = HTTPStatus.code(for: error)
        let body: JSON = .object([("status", .string("error")), ("code", .int(code)),
                                  ("message", .string(reasonPhrase(code))),
                                  ("explanation", .string(explanation(error)))])
        return jsonResponse(body, status: code, style: JSON.Style(escapeClosingTags: true))
    }

    /// The explanation APy (Tornado) gives: `Missing argument q` for an absent parameter, and
    /// the message otherwise.
    static func explanation(_ error: APIError) -> String {
        if case .missingParameter(let name) = error.code { return "Missing argument \(name)" }
        return error.message
    }

    /// Tornado's reason phrases (Python's `http.client.responses`), which APy writes as `message`.
    static func reasonPhrase(_ code: Int) -> String {
        code == 413 ? "Request Entity Too Large" : HTTPStatus.reasonPhrase(code)
    }

    static func render(_ body: JSON, request: HTTPRequest) -> HTTPResponse {
        let text = body.serialized(JSON.Style(escapeClosingTags: true))
        if let callback = AjaxEnvelope.callbackParameter(request) {
            guard JSONP.isValidCallback(callback) else {
                return errorResponse(for: .translation(.invalidArgument("callback", given: callback, accepted: "a JavaScript identifier")))
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/javascript; charset=UTF-8"],
                                body: Array("\(callback)(\(text))".utf8))
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: Array(text.utf8))
    }
}
