import GlossaWire
import HTTPServer
import TranslationCore

/// Google's JSON error envelope, the one place Google v2 errors are rendered:
/// `{"error": {"code", "message", "errors": [{"message", "domain", "reason"}], "status"}}`.
/// `google.api_core` maps `code` to its exception class (400 → BadRequest, 403 → Forbidden, …).
enum GoogleV2Error {
    /// HTTP code, `errors[].domain`, `errors[].reason`, gRPC-style `status` and message.
    struct Classified {
        var code: Int
        var domain = "global"
        var reason: String
        var status: String
        var message: String
    }

    static func response(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        let c = classify(error)
        let body = GoogleV2Wire.ErrorResponse(code: c.code, message: c.message, domain: c.domain, reason: c.reason, status: c.status)
        return GoogleV2Output.render(body.json, status: c.code, request: request)
    }

    /// Google's front end's codes, reasons and statuses; the credential and limit messages are
    /// the ones Google sends (`../shared/reference/api-wire-formats.md` §1.3–1.5).
    static func classify(_ error: APIError) -> Classified {
        let m = error.message
        switch error.code {
        case .missingParameter: return Classified(code: 400, reason: "required", status: "INVALID_ARGUMENT", message: m)
        case .malformedBody: return Classified(code: 400, reason: "parseError", status: "INVALID_ARGUMENT", message: m)
        case .payloadTooLarge: return Classified(code: 413, reason: "invalid", status: "INVALID_ARGUMENT", message: m)
        case .tooManySegments: return Classified(code: 400, reason: "invalid", status: "INVALID_ARGUMENT", message: m)
        case .notFound: return Classified(code: 404, reason: "notFound", status: "NOT_FOUND", message: m)
        case .methodNotAllowed: return Classified(code: 405, reason: "httpMethodNotAllowed", status: "INVALID_ARGUMENT", message: m)
        case .unauthorized(.missing):
            return Classified(code: 403, reason: "forbidden", status: "PERMISSION_DENIED",
                              message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.")
        case .unauthorized(.invalid):
            return Classified(code: 400, domain: "usageLimits", reason: "keyInvalid", status: "INVALID_ARGUMENT",
                              message: "API key not valid. Please pass a valid API key.")
        case .forbidden: return Classified(code: 403, reason: "forbidden", status: "PERMISSION_DENIED", message: m)
        // A key's own limit is a user's rate limit (403, as v2 answers it); callers without a key
        // share their address's limit, answered as Google's front end answers a rate quota: 429.
        case .rateLimited(_, .key):
            return Classified(code: 403, domain: "usageLimits", reason: "userRateLimitExceeded", status: "PERMISSION_DENIED", message: "User Rate Limit Exceeded")
        case .rateLimited(_, .address):
            return Classified(code: 429, domain: "usageLimits", reason: "rateLimitExceeded", status: "RESOURCE_EXHAUSTED", message: "Rate Limit Exceeded")
        case .quotaExceeded:
            return Classified(code: 403, domain: "usageLimits", reason: "dailyLimitExceeded", status: "PERMISSION_DENIED", message: "Daily Limit Exceeded")
        case .unavailable: return Classified(code: 503, reason: "backendError", status: "UNAVAILABLE", message: m)
        case .translation(let e):
            switch e.kind {
            case .invalidLanguage, .invalidArgument, .invalidInput, .unableToIdentifyLanguage, .limitExceeded:
                return Classified(code: 400, reason: "invalid", status: "INVALID_ARGUMENT", message: m)
            case .unsupportedSourceLanguage, .unsupportedTargetLanguage, .unsupportedPair, .notInstalled:
                return Classified(code: 400, reason: "badRequest", status: "INVALID_ARGUMENT", message: m)
            case .engineFailure: return Classified(code: 500, reason: "backendError", status: "INTERNAL", message: m)
            case .timeout, .cancelled, .overloaded: return Classified(code: 503, reason: "backendError", status: "UNAVAILABLE", message: m)
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
        if let callback = value("callback") {
            guard JSONP.isValidCallback(callback) else {
                // Refused, not ignored: a caller that asked for JSONP must not get bare JSON silently.
                return GoogleV2Error.response(for: .translation(.invalidArgument(
                    "callback", given: callback, accepted: "a JavaScript identifier such as handleResult")), request: HTTPRequest(method: "GET", path: "/"))
            }
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
