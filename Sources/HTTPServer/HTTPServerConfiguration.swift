/// How an ``HTTPServer`` listens and what it refuses. Each field documents its default.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric IPv4 or IPv6 address to bind. Default: `127.0.0.1` (loopback only).
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (see ``HTTPServer/port``). Default: 8080.
    public var port: Int = 8080
    /// I/O threads polling sockets with epoll. They only move bytes; handlers run on Swift's
    /// concurrency pool. Default: 2.
    public var ioThreads: Int = 2
    /// Most simultaneous connections; more are refused at accept. Default: 1024.
    public var connectionLimit: Int = 1024
    /// Seconds a connection may sit idle or trickle bytes before it is closed (slow clients,
    /// idle keep-alive). Time spent computing a response does not count. Default: 30.
    public var connectionTimeoutSeconds: Int = 30
    /// Bytes per connection for the request line and all headers; larger requests get
    /// 431 from the HTTP library. Default: 64 KiB.
    public var maxHeaderBytes: Int = 64 * 1024
    /// Largest body kept in memory; a larger body is refused (declared by `Content-Length`
    /// before any byte is read, or counted as it arrives) and the handler answers 413. Default: 1 MiB.
    public var maxBodyBytes: Int = 1 << 20
    /// A body that keeps coming this far past ``maxBodyBytes`` has its connection closed instead of
    /// being read to the end for a 413. Default: 8 MiB.
    public var maxDiscardedBodyBytes: Int = 8 << 20
    /// On shutdown, how long requests in flight may take to finish before they are cancelled.
    /// Default: 30 seconds.
    public var drainTimeoutSeconds: Double = 30

    /// The defaults.
    public init() {}

    /// The defaults, listening on `host:port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the address.
    public let message: String

    public var description: String { message }
}
