/// One HTTP response: a status, headers and a body that is either complete or streamed.
public struct HTTPResponse: Sendable {
    /// The body of a response.
    public enum Body: Sendable {
        /// All the bytes at once; sent with a `Content-Length`.
        case bytes([UInt8])
        /// Bytes as they are produced, sent with chunked transfer encoding (HTTP/1.1). The
        /// response ends when the sequence finishes; empty chunks are skipped.
        case stream(AsyncStream<[UInt8]>)
    }

    /// The status code.
    public var status: Int
    /// Header fields; `Content-Length` and `Transfer-Encoding` are set by the server.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Makes a response with a complete body.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// Makes a streamed response.
    public init(status: Int, headers: HTTPHeaders = [:], stream: AsyncStream<[UInt8]>) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }

    /// A response whose body is `text` in UTF-8 with the given content type.
    public static func text(_ text: String, status: Int = 200,
                            contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// The complete body bytes; empty for a streamed body.
    public var bodyBytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}

/// Turns requests into responses. Handlers never throw: each protocol renders its own errors,
/// including ``HTTPRequest/BodyStatus/tooLarge(limit:)`` and ``HTTPRequest/invalidUTF8``.
///
/// HEAD: answer it as GET, body included; the server sends the headers with that body's
/// `Content-Length` and leaves the body out (RFC 9110 §9.3.2).
///
/// Cancellation: the handler's task is cancelled when the client hangs up while it runs, and at
/// shutdown past the drain deadline; it should then stop its work and answer (a 503 in its
/// protocol's envelope at shutdown). Responses during the drain get `Connection: close`.
public protocol HTTPHandler: Sendable {
    /// Answers one request. Runs on Swift's concurrency pool, never on a server I/O thread.
    func handle(_ request: HTTPRequest) async -> HTTPResponse

    /// The 503 the server sends on the handler's behalf when shutdown gives up on a request whose
    /// handler did not answer within the cancellation grace (``HTTPServerConfiguration/cancelGraceSeconds``).
    /// Called on the shutdown path, so it must be quick and must not wait; `request` has no body.
    /// Default: a plain-text 503.
    func abandonedResponse(for request: HTTPRequest) -> HTTPResponse
}

extension HTTPHandler {
    /// A plain-text 503 (handlers that speak a protocol answer in its envelope instead).
    public func abandonedResponse(for request: HTTPRequest) -> HTTPResponse {
        .text("The server is shutting down; the request was not finished.\n", status: 503)
    }
}

/// A handler made from a closure (tests, small servers).
public struct ClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) async -> HTTPResponse

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }

    /// Calls the closure.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse { await body(request) }
}
