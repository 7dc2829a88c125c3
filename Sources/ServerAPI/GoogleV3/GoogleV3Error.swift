import GlossaWire
import HTTPServer

/// Google's v3 error envelope, the one place Google v3 errors are rendered:
/// `{"error": {"code", "message", "status", "details": [{"@type": "…ErrorInfo", "reason", "domain"}]}}`,
/// what `google.api_core` reads into its exception (code → class, message, reason from the
/// ErrorInfo). Codes, statuses and messages are v2's (``GoogleV2Error/classify(_:)``): the same
/// front end answers both.
enum GoogleV3Error {
    static func response(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        let c = GoogleV2Error.classify(error)
        let info: JSON = .object([("@type", .string("type.googleapis.com/google.rpc.ErrorInfo")), ("reason", .string(c.reason)),
                                  ("domain", .string(c.domain == "global" ? "translate.googleapis.com" : "googleapis.com"))])
        let body: JSON = .object([("error", .object([("code", .int(c.code)), ("message", .string(c.message)), ("status", .string(c.status)),
                                                     ("details", .array([info]))]))])
        return GoogleV3API.render(body, status: c.code)
    }
}
