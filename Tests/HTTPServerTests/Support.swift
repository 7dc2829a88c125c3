import Foundation
import HTTPServer
import HTTPTestSupport

/// A latch a handler waits on until the test opens it: no test depends on timing.
actor Gate {
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if open { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        open = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// Echoes what the server handed the handler, so each test can see the request as parsed;
/// `/gated` waits for the test's gate.
func echo(_ gate: Gate) -> ClosureHandler {
    ClosureHandler { request in
        switch request.path {
        case "/gated":
            await gate.wait()
            return .text("gated done")
        case "/forever":
            // Ends only when cancelled: shutdown past its drain deadline must cancel it.
            try? await Task.sleep(for: .seconds(3600))
            return .text(Task.isCancelled ? "cancelled" : "done", status: 503)
        case "/big-stream":
            // 8 MiB in 64 KiB chunks, far past the buffer's high-water mark.
            let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
            Task {
                for i in 0..<128 { continuation.yield([UInt8](repeating: UInt8(i), count: 65536)) }
                continuation.finish()
            }
            return HTTPResponse(status: 200, stream: stream)
        case "/stream":
            let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
            Task {
                for i in 0..<5 {
                    try? await Task.sleep(for: .milliseconds(30))
                    continuation.yield(Array("line \(i)\n".utf8))
                }
                continuation.finish()
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/x-ndjson"], stream: stream)
        case "/utf8":
            return .text("invalid=\(request.invalidUTF8) query=\(request.query) path=\(request.path)")
        default:
            if case .tooLarge(let limit) = request.bodyStatus {
                return .text("too large, limit \(limit)", status: 413)
            }
            let text = "\(request.method) \(request.path) ?\(request.query) x=\(request.headers["X-Test"] ?? "-") body=\(String(decoding: request.body, as: UTF8.self))"
            return .text(text)
        }
    }
}

/// A server on 127.0.0.1 for these tests. The idle timeout defaults to 300 s: tests that are not
/// about it must not meet it on a loaded CI machine, where a handler may wait tens of seconds.
func startServer(maxBody: Int = 1024, ioThreads: Int = 1, timeout: Int = 300, gate: Gate = Gate(),
                 drain: Double = 20, handler: (any HTTPHandler)? = nil,
                 configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> HTTPServer {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.connectionTimeoutSeconds = timeout
    configuration.maxBodyBytes = maxBody
    configuration.ioThreads = ioThreads
    configuration.maxHeaderBytes = 8192
    configuration.drainTimeoutSeconds = drain
    configure(&configuration)
    return try HTTPServer.start(configuration: configuration, handler: handler ?? echo(gate))
}

/// Waits until `condition` holds: 6,000 polls 10 ms apart, at least 60 s (on a loaded CI machine
/// a request may wait that long for the server's handler task to run; a passing test waits only
/// as long as its condition takes).
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<6000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

