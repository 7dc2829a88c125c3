import GlossaWire
import HTTPServer
import TranslationCore

/// The AJAX Language API v1 envelope, the one place its answers and errors are rendered:
/// `{"responseData": …, "responseDetails": …, "responseStatus": …}`, always HTTP 200 with the real
/// status in `responseStatus`, and JSONP when `callback` is given.
enum AjaxEnvelope {
    static func success(_ data: JSON) -> JSON {
        .object([("responseData", data), ("responseDetails", .null), ("responseStatus", .int(200))])
    }

    static func failure(_ error: APIError) -> JSON {
        .object([("responseData", .null), ("responseDetails", .string(error.message)),
                 ("responseStatus", .int(HTTPStatus.code(for: error)))])
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
