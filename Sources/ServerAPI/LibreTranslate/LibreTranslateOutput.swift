import GlossaWire
import HTTPServer

/// LibreTranslate's bodies as Flask 2.2's `jsonify` writes them: compact, keys sorted, floats with
/// a fraction (`90.0`), raw UTF-8, a final newline, `Content-Type: application/json`.
enum LibreTranslateOutput {
    static let style = JSON.Style(sortedKeys: true, floatsWithFraction: true)

    static func render(_ body: JSON, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array((body.serialized(style) + "\n").utf8))
    }
}

/// LibreTranslate's error envelope, the one place its errors are rendered: `{"error": "…"}` with
/// LibreTranslate's statuses and, for the cases it defines, its exact messages (app.py 1.9.6).
enum LibreTranslateError {
    static func response(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        let (status, message) = classify(error)
        return LibreTranslateOutput.render(.object([("error", .string(message))]), status: status)
    }

    static func classify(_ error: APIError) -> (Int, String) {
        switch error.code {
        case .missingParameter(let name): return (400, "Invalid request: missing \(name) parameter")
        case .malformedBody(.invalidJSON): return (400, "Failed to decode JSON object: the body is not well-formed UTF-8 JSON")
        case .malformedBody(.notAnObject): return (400, "Invalid JSON format")
        case .malformedBody: return (400, error.message)
        case .tooManySegments(let given, let limit): return (400, "Invalid request: request (\(given)) exceeds text limit (\(limit))")
        case .payloadTooLarge: return (413, error.message)
        case .notFound: return (404, error.message)
        // Werkzeug's own sentence for 405 (Flask answers it before LibreTranslate's handlers run).
        case .methodNotAllowed: return (405, "The method is not allowed for the requested URL.")
        case .unauthorized(.missing): return (400, "Please contact the server operator to get an API key")
        case .unauthorized(.invalid): return (403, "Invalid API key")
        case .forbidden: return (403, error.message)
        case .rateLimited, .quotaExceeded: return (429, "Slowdown: \(error.message)")
        case .unavailable: return (503, error.message)
        case .translation(let e):
            switch e.kind {
            case .engineFailure: return (500, "Cannot translate text: \(e.message)")
            case .timeout, .cancelled, .overloaded: return (503, e.message)
            default: return (400, e.message)
            }
        }
    }
}
