/// How an ``HTTPServer`` listens and what it refuses. Each field documents its default.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric IPv4 or IPv6 address to bind, or `localhost` (127.0.0.1). Default: `127.0.0.1`
    /// (loopback only).
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (see ``HTTPServer/port``). Default: 8080.
    public var port: Int = 8080
    /// I/O threads polling sockets with poll() (see glossa_mhd.c for why not epoll). They only move bytes; handlers run on Swift's
    /// concurrency pool. Default: 2.
    public var ioThreads: Int = 2
    /// Most simultaneous connections. At the limit a new client takes the place of a connection
    /// idle between requests or stalled in its request head (over a second), or is refused at
    /// once (the connection is closed); it never waits in the kernel's backlog. Default: 1024.
    public var connectionLimit: Int = 1024
    /// Most simultaneous connections from one IP address; more are refused at accept. 0: no
    /// limit (set 0 behind a reverse proxy, whose connections all come from one address).
    /// Default: 256.
    public var connectionLimitPerAddress: Int = 256
    /// Seconds a connection may wait for its next request line (after accepting it, or after its
    /// previous response) or sit idle in any phase before it is closed. Time spent computing a
    /// response does not count. Default: 30.
    public var connectionTimeoutSeconds: Int = 30
    /// Seconds from a request line to the end of its head (all header fields): a client sending
    /// its head a byte at a time is closed after this, however busy it looks. Default: 10.
    public var headTimeoutSeconds: Int = 10
    /// Seconds from the end of a request's head to the end of its body. Default: 60.
    public var bodyTimeoutSeconds: Int = 60
    /// Bytes per connection for the request line and all headers; larger requests get
    /// 431 from the HTTP library. Default: 64 KiB.
    public var maxHeaderBytes: Int = 64 * 1024
    /// Largest body kept in memory; a larger body is refused (declared by `Content-Length`
    /// before any byte is read, or counted as it arrives) and the handler answers 413. Default: 1 MiB.
    public var maxBodyBytes: Int = 1 << 20
    /// Paths that take larger bodies than ``maxBodyBytes`` (document uploads), with their limit.
    /// Default: none.
    public var largeBodyPaths: [String: Int] = [:]
    /// Paths that take larger bodies, by how the path ends (Google v3's `…:translateDocument`,
    /// whose start names the caller's project), with their limit. Default: none.
    public var largeBodyPathSuffixes: [String: Int] = [:]
    /// A body that keeps coming this far past ``maxBodyBytes`` has its connection closed instead of
    /// being read to the end for a 413. Default: 64 MiB.
    public var maxDiscardedBodyBytes: Int = 64 << 20
    /// On shutdown, how long requests in flight may take to finish before they are cancelled
    /// (and answered 503 by their handler). Default: 20 seconds.
    public var drainTimeoutSeconds: Double = 20
    /// On shutdown, how long cancelled handlers may take to answer before the server answers 503
    /// for them. ``HTTPServer/shutdown()`` takes at most ``drainTimeoutSeconds`` plus this plus
    /// 2 seconds.
    /// Default: 3 seconds.
    public var cancelGraceSeconds: Double = 3

    /// The defaults.
    public init() {}

    /// The body limit of a request for `path`.
    public func maxBodyBytes(forPath path: String) -> Int {
        largeBodyPaths[path] ?? largeBodyPaths[path.hasSuffix("/") ? String(path.dropLast()) : path + "/"]
            ?? largeBodyPathSuffixes.first { path.hasSuffix($0.key) }?.value ?? maxBodyBytes
    }

    /// The defaults, listening on `host:port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}

extension HTTPServerConfiguration {
    /// The deadlines and limit ``ConnectionTable`` enforces.
    var connectionTableLimits: ConnectionTable<ContinuousClock.Instant>.Limits {
        .init(maxConnections: max(1, connectionLimit),
              requestLineTimeout: .seconds(max(1, connectionTimeoutSeconds)),
              headTimeout: .seconds(max(1, headTimeoutSeconds)),
              bodyTimeout: .seconds(max(1, bodyTimeoutSeconds)))
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the address.
    public let message: String

    /// The message.
    public var description: String { message }
}
