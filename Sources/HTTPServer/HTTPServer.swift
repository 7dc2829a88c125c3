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
/// Thread model: MHD's internal poll() threads (``HTTPServerConfiguration/ioThreads``) accept,
/// parse and write; each complete request is handed to the handler on a Swift task while its
/// connection is suspended, so no I/O thread ever waits for translation work and thousands of
/// keep-alive connections cost no thread each (unlike MHD's thread-per-connection mode, which
/// also cannot suspend). A watchdog thread enforces the receive deadlines and cancels the work of
/// clients that hang up (``ConnectionWatchdog``).
///
/// Hostile input: requests with ambiguous framing are refused with one 400/501 and the
/// connection closed (``RequestFraming``); bodies past the limit get 413; at the connection limit
/// a newcomer replaces an idle or stalled connection or is refused at once.
///
/// ```swift
/// let server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0), handler: h)
/// print(server.port)
/// await server.shutdown()   // stop accepting, drain, cancel, answer, close
/// ```
public final class HTTPServer: Sendable {
    /// The settings it was started with.
    public let configuration: HTTPServerConfiguration
    /// The port it listens on (the chosen one when the configuration asked for 0).
    public let port: Int

    private let core: ServerCore
    private let watchdog: ConnectionWatchdog
    private let daemon: Mutex<DaemonHandle?>
    /// Set by ``cutDrainShort()``: the drain stops waiting.
    private let hurry = Atomic<Bool>(false)

    private init(configuration: HTTPServerConfiguration, port: Int, core: ServerCore, daemon: DaemonHandle) {
        self.configuration = configuration
        self.port = port
        self.core = core
        self.watchdog = ConnectionWatchdog(core: core)
        self.daemon = Mutex(daemon)
        watchdog.start()
    }

    /// Binds and starts serving on background I/O threads.
    ///
    /// Raises the process's soft limit on open files toward its hard limit when the connection
    /// limit needs more descriptors (as Go's runtime does), since at the usual 1024 a full server
    /// would fail to accept instead of refusing cleanly.
    /// - Throws: ``HTTPServerError`` when the address is not numeric or cannot be bound.
    public static func start(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws -> HTTPServer {
        guard (0...65535).contains(configuration.port) else {
            throw HTTPServerError(message: "port \(configuration.port) is outside 0...65535")
        }
        raiseOpenFileLimit(toAtLeast: rlim_t(max(1, configuration.connectionLimit)) * 2 + 256)
        let core = ServerCore(handler: handler, configuration: configuration)
        var errorText = [CChar](repeating: 0, count: 256)
        // `localhost` is the one name accepted: it is what people type, and it needs no resolver.
        let address = configuration.host.lowercased() == "localhost" ? "127.0.0.1" : configuration.host
        let threads = max(1, configuration.ioThreads)
        let started: OpaquePointer? = address.withCString { host in
            var settings = glossa_mhd_settings(
                host: host, port: UInt16(configuration.port),
                threads: UInt32(threads),
                // MHD splits its limit between the I/O threads and, at it, stops accepting (new
                // clients then hang in the backlog). Ours is enforced in the connection
                // notification; MHD's sits above it on every thread, so MHD never reaches it.
                connection_limit: UInt32((max(1, configuration.connectionLimit) + 64) * threads),
                per_ip_connection_limit: UInt32(max(0, configuration.connectionLimitPerAddress)),
                connection_timeout: UInt32(max(1, configuration.connectionTimeoutSeconds)),
                connection_memory_limit: max(4096, configuration.maxHeaderBytes),
                // -1 is the strictness that rejects whitespace before a header's colon (a
                // smuggling vector) in 0.9.75. Its level 1 would check Host, but its answer then
                // carries its status line twice; RequestFraming checks Host instead.
                strictness: -1)
            // `core` is passed unretained: the HTTPServer owns it and stops the daemon (which
            // ends all callbacks) before it can be released; see `shutdown` and `deinit`.
            return glossa_mhd_start(&settings, accessCallback, completedCallback, uriCallback, notifyCallback,
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

    /// Stops in stages, each with a deadline, and returns when the daemon is stopped:
    /// 1. stop accepting (new connections are refused by the kernel);
    /// 2. drain: close idle keep-alive connections, let requests in flight finish for
    ///    ``HTTPServerConfiguration/drainTimeoutSeconds``, every response now `Connection: close`;
    /// 3. cancel what remains (down to the engines); each handler answers in its protocol's
    ///    envelope within ``HTTPServerConfiguration/cancelGraceSeconds``;
    /// 4. answer 503 for any handler that ignored cancellation (``HTTPHandler/abandonedResponse(for:)``,
    ///    the handler's own envelope), end unfinished streams with an error;
    /// 5. stop the daemon once no connection is suspended (MHD aborts the process otherwise).
    ///
    /// Safe to call more than once; a second call returns at once.
    public func shutdown() async {
        guard let handle = daemon.withLock({ d -> DaemonHandle? in defer { d = nil }; return d }) else { return }
        // Quiesce returns the listening socket, which MHD no longer polls. The kernel would still
        // complete handshakes into its backlog, so stop listening now (shutdown, not close: MHD's
        // threads may still hold the descriptor until MHD_stop_daemon, so it is closed last).
        let listener = MHD_quiesce_daemon(handle.pointer)
        if listener >= 0 { _ = Glibc.shutdown(listener, Int32(SHUT_RDWR)) }
        core.beginDrain()
        if !(await waitUntil(seconds: configuration.drainTimeoutSeconds, { core.inFlight == 0 || hurry.load(ordering: .relaxed) })) || core.inFlight > 0 {
            core.cancelAll()
            _ = await waitUntil(seconds: configuration.cancelGraceSeconds) { core.inFlight == 0 || core.suspendedCount == 0 }
        }
        // Whatever still holds a connection suspended is answered for; repeated, since a stream
        // may start between rounds. Resumed connections leave MHD's suspended list when MHD
        // calls back, which the count follows.
        let clear = await waitUntil(seconds: 2) {
            if core.suspendedCount == 0 { return true }
            core.answerAbandoned()
            return false
        }
        await watchdog.stop()
        guard clear else {
            // Cannot happen unless MHD never calls back; stopping would abort the process, so
            // the daemon and its callbacks' target are left alive for the rest of the process.
            Self.abandoned.withLock { $0.append((handle, core)) }
            return
        }
        MHD_stop_daemon(handle.pointer)
        if listener >= 0 { close(listener) }
    }

    /// Ends the drain of a ``shutdown()`` under way now (a second SIGINT): what is in flight is
    /// cancelled at once.
    public func cutDrainShort() {
        hurry.store(true, ordering: .relaxed)
    }

    /// Daemons that could not be stopped safely, kept alive with their core.
    private static let abandoned = Mutex<[(DaemonHandle, ServerCore)]>([])

    private func waitUntil(seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    deinit {
        // A server dropped without shutdown still must stop its threads before `core` goes;
        // with a connection suspended it cannot, and leaves both alive instead.
        stoppedWatchdogOnDeinit()
        if let handle = daemon.withLock({ $0 }) {
            if core.suspendedCount == 0 { MHD_stop_daemon(handle.pointer) } else { Self.abandoned.withLock { $0.append((handle, core)) } }
        }
    }

    private func stoppedWatchdogOnDeinit() {
        let watchdog = self.watchdog
        Task { await watchdog.stop() }
    }
}

/// Raises the soft limit on open files to `wanted` (at most the hard limit), never lowering it.
private func raiseOpenFileLimit(toAtLeast wanted: rlim_t) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < wanted else { return }
    limit.rlim_cur = min(wanted, limit.rlim_max)
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// `cls` is the unretained ``ServerCore``; `context` holds the request's ``RequestContext``
/// (set by ``uriCallback`` before any call here).
private let accessCallback: MHD_AccessHandlerCallback = { cls, connection, _, method, version, upload, uploadSize, context in
    guard let cls, let connection, let uploadSize, let raw = context?.pointee else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let request = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    return core.access(request, connection: connection, method: method.map { String(cString: $0) } ?? "GET",
                       version: version.map { String(cString: $0) } ?? "",
                       upload: upload, uploadSize: uploadSize)
}

/// Called once per request with the raw target (path and query, before MHD unescapes anything),
/// so the query is decoded by our own rules ('+' as space, strict UTF-8) and no byte is repaired.
private let uriCallback: glossa_mhd_uri_logger = { cls, uri, connection in
    guard let cls, let connection else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let target = uri.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? Array("/".utf8)
    return core.begin(target: target, connection: connection)
}

/// Called once per request when MHD is done with it, whatever the outcome.
private let completedCallback: MHD_RequestCompletedCallback = { cls, _, context, _ in
    guard let cls, let context, let raw = context.pointee else { return }
    context.pointee = nil
    Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().complete(raw)
}

/// Called when a connection opens and when it closes (before MHD closes its socket).
private let notifyCallback: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED { core.connectionStarted(connection) } else { core.connectionClosed(connection) }
}
