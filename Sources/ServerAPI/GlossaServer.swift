import HTTPServer
import Synchronization
import TranslationService

/// The Glossa HTTP service: the router over a ``TranslationService`` on an ``HTTPServer``.
///
/// ```swift
/// let server = GlossaServer(service: service)
/// try await server.run(host: "127.0.0.1", port: 8080)   // returns after SIGTERM/SIGINT
/// ```
public final class GlossaServer: Sendable {
    /// Server settings; `host` and `port` are overridden by ``run(host:port:onListening:)``.
    public let http: HTTPServerConfiguration
    /// The router, with its metrics.
    public let router: GlossaRouter
    private let service: TranslationService

    /// Makes a server over `service` (not started).
    public init(service: TranslationService, http: HTTPServerConfiguration = HTTPServerConfiguration(),
                api: ServerAPIConfiguration = ServerAPIConfiguration()) {
        self.service = service
        let router = makeGlossaRouter(service: service, configuration: api)
        var http = http
        // Upload endpoints take larger bodies; every other path keeps the server's limit.
        for (path, limit) in router.largeBodyPaths where http.largeBodyPaths[path] == nil { http.largeBodyPaths[path] = limit }
        for (suffix, limit) in router.largeBodyPathSuffixes where http.largeBodyPathSuffixes[suffix] == nil {
            http.largeBodyPathSuffixes[suffix] = limit
        }
        self.http = http
        self.router = router
    }

    /// Starts listening and returns the running server (tests; `run` for the CLI). The caller
    /// shuts it down and then calls `service.shutdown()`.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound.
    public func start(host: String, port: Int) throws -> HTTPServer {
        var configuration = http
        configuration.host = host
        configuration.port = port
        return try HTTPServer.start(configuration: configuration, handler: router)
    }

    /// Serves until SIGTERM or SIGINT, then stops in stages (``HTTPServer/shutdown()``): stops
    /// accepting, lets requests in flight finish for the drain time, cancels the rest (each
    /// answered 503 in its protocol's envelope), stops the HTTP daemon, then the engines
    /// (`service.shutdown()`, which ends every pipeline process). A second signal during the
    /// drain cancels at once.
    /// - Parameters:
    ///   - warmUp: run in the background once the address is bound and `onListening` has been
    ///     told (requests are answered from the first moment; a pair not checked yet is checked
    ///     before its first translation), cancelled if a signal comes first.
    ///   - onListening: called once listening, with the bound port (useful with port 0).
    ///   - onReady: called when `warmUp` has finished (not when it was cancelled).
    ///   - log: told each stage of the shutdown, as a line for people.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound (the engines are stopped).
    public func run(host: String = "127.0.0.1", port: Int = 8080, warmUp: @escaping @Sendable () async -> Void = {},
                    onListening: @Sendable (Int) -> Void = { _ in },
                    onReady: @escaping @Sendable () -> Void = {},
                    log: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        // Install the signal handlers before listening, so no signal is lost in between.
        let signals = TerminationSignal.signals()
        let server: HTTPServer
        do { server = try start(host: host, port: port) } catch {
            await service.shutdown()
            throw error
        }
        onListening(server.port)
        // Why a task of its own: start-up checks take minutes with every Debian pair, and the
        // server's promise is to listen at once; a signal cancels what is left of them.
        let warming = Task {
            await warmUp()
            if !Task.isCancelled { onReady() }
        }
        var received = signals.makeAsyncIterator()
        _ = await received.next()
        warming.cancel()
        let start = ContinuousClock.now
        let elapsed = { () -> String in
            let tenths = (ContinuousClock.now - start) / .milliseconds(100)
            return "\(Int(tenths) / 10).\(Int(tenths) % 10) s"
        }
        log("stopping: \(server.inFlight) requests in flight, draining for up to \(http.drainTimeoutSeconds) s (a second signal cancels them now)")
        let second = Task {
            var more = signals.makeAsyncIterator()
            if await more.next() != nil {
                log("second signal: cancelling the requests in flight")
                server.cutDrainShort()
            }
        }
        await server.shutdown()
        second.cancel()
        log("HTTP server stopped after \(elapsed()); stopping the engines")
        // Bounded, so the exit keeps its documented deadline: the engines signal their processes
        // at once; what is left after this is only waiting for slow ones to be reaped.
        let service = self.service
        let stopped = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let pending = Mutex<CheckedContinuation<Bool, Never>?>(continuation)
            let finish = { @Sendable (done: Bool) in pending.withLock { c in c?.resume(returning: done); c = nil } }
            Task { await service.shutdown(); finish(true) }
            Task { try? await Task.sleep(for: .seconds(4)); finish(false) }
        }
        log(stopped ? "engines stopped after \(elapsed())" : "engines still stopping after \(elapsed()); exiting")
    }
}
