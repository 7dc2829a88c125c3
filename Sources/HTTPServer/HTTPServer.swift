import CMicroHTTPD
import CMicroHTTPDShim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A daemon pointer that may cross threads: MHD's daemon calls used here (quiesce, stop, info)
/// are made from one shutdown path at a time, guarded by the server's mutex.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// An HTTP/1.1 server over libmicrohttpd with an async ``HTTPHandler``.
///
/// Thread model: MHD's internal epoll threads (``HTTPServerConfiguration/ioThreads``) accept,
/// parse and write; each complete request is handed to the handler on a Swift task while its
/// connection is suspended, so no I/O thread ever waits for translation work and thousands of
/// keep-alive connections cost no thread each (unlike MHD's thread-per-connection mode, which
/// also cannot suspend).
///
/// ```swift
/// let server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0), handler: h)
/// print(server.port)
/// await server.shutdown()   // stop accepting, finish in-flight requests, close
/// ```
public final class HTTPServer: Sendable {
    /// The settings it was started with.
    public let configuration: HTTPServerConfiguration
    /// The port it listens on (the chosen one when the configuration asked for 0).
    public let port: Int

    private let core: ServerCore
    private let daemon: Mutex<DaemonHandle?>

    private init(configuration: HTTPServerConfiguration, port: Int, core: ServerCore, daemon: DaemonHandle) {
        self.configuration = configuration
        self.port = port
        self.core = core
        self.daemon = Mutex(daemon)
    }

    /// Binds and starts serving on background I/O threads.
    /// - Throws: ``HTTPServerError`` when the address is not numeric or cannot be bound.
    public static func start(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws -> HTTPServer {
        guard (0...65535).contains(configuration.port) else {
            throw HTTPServerError(message: "port \(configuration.port) is outside 0...65535")
        }
        let core = ServerCore(handler: handler, configuration: configuration)
        var errorText = [CChar](repeating: 0, count: 256)
        let started: OpaquePointer? = configuration.host.withCString { host in
            var settings = glossa_mhd_settings(
                host: host, port: UInt16(configuration.port),
                threads: UInt32(max(1, configuration.ioThreads)),
                connection_limit: UInt32(max(1, configuration.connectionLimit)),
                connection_timeout: UInt32(max(1, configuration.connectionTimeoutSeconds)),
                connection_memory_limit: max(4096, configuration.maxHeaderBytes))
            // `core` is passed unretained: the HTTPServer owns it and stops the daemon (which
            // ends all callbacks) before it can be released; see `shutdown` and `deinit`.
            return glossa_mhd_start(&settings, accessCallback, completedCallback, uriCallback,
                                    Unmanaged.passUnretained(core).toOpaque(), &errorText, errorText.count)
        }
        guard let started else {
            throw HTTPServerError(message: String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let port = Int(glossa_mhd_bound_port(started))
        return HTTPServer(configuration: configuration, port: port, core: core, daemon: DaemonHandle(pointer: started))
    }

    /// Requests received and not yet fully answered.
    public var inFlight: Int { core.inFlight }

    /// Stops gracefully: stops accepting connections, lets requests in flight finish (cancelling
    /// those still running after ``HTTPServerConfiguration/drainTimeoutSeconds``), then closes
    /// every connection. Safe to call more than once.
    public func shutdown() async {
        guard let handle = daemon.withLock({ d -> DaemonHandle? in defer { d = nil }; return d }) else { return }
        // Quiesce returns the listening socket, which MHD no longer polls; we close it last.
        let listener = MHD_quiesce_daemon(handle.pointer)
        if !(await waitForDrain(seconds: configuration.drainTimeoutSeconds)) {
            core.cancelAll()
            _ = await waitForDrain(seconds: 5)
        }
        // MHD forbids stopping with suspended connections; after the waits above only a handler
        // that ignores cancellation could still hold one, and stopping anyway is the lesser harm.
        MHD_stop_daemon(handle.pointer)
        if listener >= 0 { close(listener) }
    }

    private func waitForDrain(seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while core.inFlight > 0 {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    deinit {
        // A server dropped without shutdown still must stop its threads before `core` goes.
        if let handle = daemon.withLock({ $0 }) { MHD_stop_daemon(handle.pointer) }
    }
}

/// `cls` is the unretained ``ServerCore``; `context` holds the request's ``RequestContext``
/// (set by ``uriCallback`` before any call here).
private let accessCallback: MHD_AccessHandlerCallback = { cls, connection, _, method, _, upload, uploadSize, context in
    guard let cls, let connection, let uploadSize, let raw = context?.pointee else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let request = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    return core.access(request, connection: connection, method: method.map { String(cString: $0) } ?? "GET",
                       upload: upload, uploadSize: uploadSize)
}

/// Called once per request with the raw target (path and query, before MHD unescapes anything),
/// so the query is decoded by our own rules ('+' as space, strict UTF-8).
private let uriCallback: glossa_mhd_uri_logger = { cls, uri, _ in
    guard let cls else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    return core.begin(target: uri.map { String(cString: $0) } ?? "/")
}

/// Called once per request when MHD is done with it, whatever the outcome.
private let completedCallback: MHD_RequestCompletedCallback = { cls, _, context, _ in
    guard let cls, let context, let raw = context.pointee else { return }
    context.pointee = nil
    Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().complete(raw)
}
