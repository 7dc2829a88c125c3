import HTTPServer
import TranslationCore

/// HTTP status a protocol without its own error vocabulary reports for each ``APIError``.
enum HTTPStatusMapping {
    static func code(for error: APIError) -> Int {
        switch error {
        case .missingParameter, .malformedBody, .tooManySegments: return 400
        case .payloadTooLarge: return 413
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .translation(let e): return GoogleV2Error.classify(.translation(e)).0
        }
    }

    static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Payload Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Error"
        }
    }
}

/// The AJAX Language API v1 envelope, the one place its answers and errors are rendered:
/// `{"responseData": …, "responseDetails": …, "responseStatus": …}`, always HTTP 200 with the real
/// status in `responseStatus`, and JSONP when `callback` is given.
enum AjaxEnvelope {
    static func success(_ data: JSON) -> JSON {
        .object([("responseData", data), ("responseDetails", .null), ("responseStatus", .int(200))])
    }

    static func failure(_ error: APIError) -> JSON {
        .object([("responseData", .null), ("responseDetails", .string(error.message)),
                 ("responseStatus", .int(HTTPStatusMapping.code(for: error)))])
    }

    static func errorResponse(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        render(failure(error), request: request)
    }

    /// HTTP 200 JSON, or `callback(...)` JavaScript when a valid `callback` was given.
    static func render(_ body: JSON, request: HTTPRequest) -> HTTPResponse {
        let text = body.serialized()
        if let callback = callbackParameter(request) {
            guard JSONP.isValidCallback(callback) else {
                let error = APIError.translation(.invalidArgument("callback", given: callback, accepted: "a JavaScript identifier such as handleResult or app.done"))
                return jsonResponse(failure(error), contentType: "application/json; charset=utf-8")
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/javascript; charset=utf-8"],
                                body: Array("\(callback)(\(text))".utf8))
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: Array(text.utf8))
    }

    /// `callback` from the query or a form body (APy and AJAX clients send either).
    static func callbackParameter(_ request: HTTPRequest) -> String? {
        if let parameters = try? Parameters.parse(request, json: false) { return parameters.last("callback") }
        let query = (try? FormDecoding.parse(Array(request.query.utf8), what: "query string")) ?? []
        return query.last { $0.0 == "callback" }?.1
    }
}

/// Apertium APy's conventions, the one place its answers and errors are rendered: JSON with raw
/// UTF-8 and `</` written `<\/`, real HTTP statuses, errors as
/// `{"status": "error", "code", "message", "explanation"}`, JSONP via `callback`.
enum APyEnvelope {
    static func errorResponse(for error: APIError) -> HTTPResponse {
        let code = HTTPStatusMapping.code(for: error)
        let body: JSON = .object([("status", .string("error")), ("code", .int(code)),
                                  ("message", .string(HTTPStatusMapping.reasonPhrase(code))),
                                  ("explanation", .string(error.message))])
        return jsonResponse(body, status: code, style: JSON.Style(escapeClosingTags: true))
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
