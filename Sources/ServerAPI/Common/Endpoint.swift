import HTTPServer

/// Which wire protocol an endpoint speaks, so routing errors (404, 405) come in its envelope.
enum WireProtocol: Sendable {
    case googleV2, ajaxV1, apy, glossa
}

/// What an endpoint hands back: the response, and what metrics need to know about it.
struct EndpointResult: Sendable {
    /// The response to send.
    var response: HTTPResponse
    /// Characters of input translated (0 for other endpoints or on error).
    var characters: Int = 0
    /// The error, when the request failed.
    var error: APIError?
}

/// One route: a path, the methods it answers, its protocol and its handler.
struct Endpoint: Sendable {
    /// A bounded metrics label (`google_v2_translate`).
    let name: String
    /// The exact path (a trailing slash in the request is ignored).
    let path: String
    /// Methods answered; HEAD is answered wherever GET is.
    let methods: [String]
    /// The protocol, for error envelopes.
    let wire: WireProtocol
    /// One line for the OpenAPI document.
    let summary: String
    /// The endpoint's full OpenAPI path item (`{"post": {...}}`), for endpoints whose bodies the
    /// generated query-parameter documentation cannot describe; nil: generated.
    var documentation: JSON? = nil
    /// The handler.
    let handle: @Sendable (HTTPRequest) async -> EndpointResult
}

/// Renders an ``APIError`` in the envelope of `wire`: the one switch over protocols.
func errorResult(_ error: APIError, wire: WireProtocol, request: HTTPRequest) -> EndpointResult {
    let response: HTTPResponse
    switch wire {
    case .googleV2: response = GoogleV2Error.response(for: error, request: request)
    case .ajaxV1: response = AjaxEnvelope.errorResponse(for: error, request: request)
    case .apy: response = APyEnvelope.errorResponse(for: error)
    case .glossa: response = GoogleV2Error.response(for: error, request: request)
    }
    return EndpointResult(response: response, characters: 0, error: error)
}

/// A JSON response with the given style and status.
func jsonResponse(_ value: JSON, status: Int = 200, style: JSON.Style = JSON.Style(),
                  contentType: String = "application/json; charset=UTF-8") -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Array(value.serialized(style).utf8))
}
