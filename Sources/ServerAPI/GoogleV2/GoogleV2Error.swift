import HTTPServer
import TranslationCore

/// Google's JSON error envelope, the one place Google v2 errors are rendered:
/// `{"error": {"code", "message", "errors": [{"message", "domain", "reason"}], "status"}}`.
/// `google.api_core` maps `code` to its exception class (400 → BadRequest, 404 → NotFound, …).
enum GoogleV2Error {
    static func response(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        let (code, reason, status) = classify(error)
        let message = error.message
        let body: JSON = .object([("error", .object([
            ("code", .int(code)),
            ("message", .string(message)),
            ("errors", .array([.object([
                ("message", .string(message)), ("domain", .string("global")), ("reason", .string(reason)),
            ])])),
            ("status", .string(status)),
        ]))])
        return GoogleV2Output.render(body, status: code, request: request)
    }

    /// HTTP code, `errors[].reason` and gRPC-style `status`, as Google's front end uses them.
    static func classify(_ error: APIError) -> (Int, String, String) {
        switch error {
        case .missingParameter: return (400, "required", "INVALID_ARGUMENT")
        case .malformedBody: return (400, "parseError", "INVALID_ARGUMENT")
        case .payloadTooLarge: return (413, "invalid", "INVALID_ARGUMENT")
        case .tooManySegments: return (400, "invalid", "INVALID_ARGUMENT")
        case .notFound: return (404, "notFound", "NOT_FOUND")
        case .methodNotAllowed: return (405, "httpMethodNotAllowed", "INVALID_ARGUMENT")
        case .translation(let e):
            switch e.kind {
            case .invalidLanguage, .invalidArgument, .invalidInput, .unableToIdentifyLanguage, .limitExceeded:
                return (400, "invalid", "INVALID_ARGUMENT")
            case .unsupportedSourceLanguage, .unsupportedTargetLanguage, .unsupportedPair, .notInstalled:
                return (400, "badRequest", "INVALID_ARGUMENT")
            case .engineFailure: return (500, "backendError", "INTERNAL")
            case .timeout: return (503, "backendError", "UNAVAILABLE")
            case .cancelled: return (503, "backendError", "UNAVAILABLE")
            }
        }
    }
}

/// Google's output conventions shared by answers and errors: pretty-printed unless
/// `prettyPrint=false` (or `pp=0`), and JSONP when `callback` is given.
enum GoogleV2Output {
    static func render(_ body: JSON, status: Int = 200, request: HTTPRequest) -> HTTPResponse {
        let query = (try? FormDecoding.parse(Array(request.query.utf8), what: "query string")) ?? []
        let value = { (name: String) in query.last { $0.0 == name }?.1 }
        let pretty = !(["false", "0"].contains(value("prettyPrint")?.lowercased() ?? "") || value("pp") == "0")
        let text = body.serialized(JSON.Style(pretty: pretty))
        if let callback = value("callback"), JSONP.isValidCallback(callback) {
            return HTTPResponse(status: status, headers: ["Content-Type": "text/javascript; charset=UTF-8"],
                                body: Array("// API callback\n\(callback)(\(text));".utf8))
        }
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=UTF-8"], body: Array(text.utf8))
    }
}

/// JSONP callback names: a JavaScript identifier path (`cb`, `app.handlers[2]`), nothing that
/// could inject script.
enum JSONP {
    static func isValidCallback(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_$.[]".unicodeScalars.contains($0))
        }
    }
}
