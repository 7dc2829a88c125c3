import Foundation
import HTTPServer
import HTTPTestSupport
import Synchronization
import Testing

/// Counts a handler's units of work and whether it saw cancellation.
final class WorkMeter: Sendable {
    let units = Atomic<Int>(0)
    let cancelled = Atomic<Bool>(false)
    let started = Atomic<Int>(0)
}

/// Works in 10 ms units for up to 20 s, stopping when cancelled: stands in for an engine.
func workingHandler(_ meter: WorkMeter) -> ClosureHandler {
    ClosureHandler { request in
        meter.started.add(1, ordering: .relaxed)
        for _ in 0..<2000 {
            if Task.isCancelled { meter.cancelled.store(true, ordering: .relaxed); return .text("cancelled", status: 503) }
            try? await Task.sleep(for: .milliseconds(10))
            meter.units.add(1, ordering: .relaxed)
        }
        return .text("done")
    }
}

@Suite("HTTPServer under slow, leaving and numerous clients", .serialized)
struct HardeningTests {
    @Test("A client that hangs up while its request is worked on cancels that work")
    func disconnectCancels() async throws {
        let meter = WorkMeter()
        let server = try startServer(handler: workingHandler(meter))
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array("POST /work HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi".utf8))
        #expect(await eventually { meter.started.load(ordering: .relaxed) == 1 })
        client.close()
        #expect(await eventually { meter.cancelled.load(ordering: .relaxed) })
        let unitsAtCancel = meter.units.load(ordering: .relaxed)
        #expect(unitsAtCancel < 1000, "the work ran \(unitsAtCancel) of 2000 units")
        #expect(await eventually { server.inFlight == 0 })
        await server.shutdown()
    }

    @Test("Trickled heads are closed at their deadline, however busy they look")
    func tricklersTimeOut() async throws {
        let server = try startServer { $0.headTimeoutSeconds = 2; $0.connectionLimitPerAddress = 0 }
        let head = Array("GET /slow HTTP/1.1\r\nHost: a\r\nX-Padding: \(String(repeating: "p", count: 200))\r\n\r\n".utf8)
        let slow = SlowClients(port: server.port, count: 20, request: head, interval: .milliseconds(100), duration: .seconds(30))
        #expect(await eventually { slow.closedByServer == slow.opened })
        #expect(slow.opened == 20)
        await slow.stop()
        await server.shutdown()
    }

    @Test("At the connection limit under a slow-client attack, a normal client is served within a second")
    func limitUnderAttack() async throws {
        let server = try startServer { $0.connectionLimit = 40; $0.connectionLimitPerAddress = 0 }
        // How long a normal request takes on this machine right now, before any attack: on a
        // machine loaded many times past its cores even that can take most of a second.
        var baseline: [Duration] = []
        for round in 0..<3 {
            let start = ContinuousClock.now
            let client = try RawHTTPClient(port: server.port)
            #expect(await client.request("GET", "/baseline-\(round)")?.status == 200)
            baseline.append(ContinuousClock.now - start)
        }
        let bound = max(.seconds(1), baseline.min()! * 3)
        let head = Array("GET /slow HTTP/1.1\r\nHost: a\r\nX-Padding: \(String(repeating: "p", count: 500))\r\n\r\n".utf8)
        let slow = SlowClients(port: server.port, count: 60, request: head, interval: .milliseconds(200), duration: .seconds(30))
        // Every slot is taken (the 20 past the limit were refused at once) and the heads stall.
        #expect(await eventually { slow.closedByServer >= 20 })
        try await Task.sleep(for: .milliseconds(1500))
        // Served, never left hanging (a client waiting for a slot would wait for the 10 s head
        // deadline of a slow one). On a loaded test machine one round may be slow for reasons
        // of its own (thread scheduling), so the bound (one second, or three times the unattacked
        // time where that is longer) is asserted on the fastest of three, and 8 s on each.
        var times: [Duration] = []
        for round in 0..<3 {
            let start = ContinuousClock.now
            let client = try RawHTTPClient(port: server.port)
            let response = await client.request("GET", "/normal-\(round)")
            times.append(ContinuousClock.now - start)
            #expect(response?.status == 200, "round \(round)")
            #expect(times[round] < .seconds(8), "round \(round) took \(times[round])")
        }
        #expect(times.min()! < bound, "normal clients took \(times) (unattacked: \(baseline))")
        await slow.stop()
        await server.shutdown()
    }

    @Test("Past the per-address limit a connection is refused at once; another address is served")
    func perAddressLimit() async throws {
        let server = try startServer { $0.connectionLimitPerAddress = 5 }
        let held = try (0..<5).map { _ in try RawHTTPClient(port: server.port) }
        for client in held { #expect(await client.request("GET", "/held")?.status == 200) }
        // Refused at once, not left waiting: on a loaded test machine one attempt may be slow for
        // reasons of its own (thread scheduling), so the bound is asserted on the fastest of
        // three, and a generous one on each (a refused connection does not take a slot).
        var times: [Duration] = []
        for attempt in 0..<3 {
            let extra = try RawHTTPClient(port: server.port)
            let start = ContinuousClock.now
            #expect(await extra.request("GET", "/extra-\(attempt)") == nil, "attempt \(attempt)")
            times.append(ContinuousClock.now - start)
            #expect(times[attempt] < .seconds(10), "attempt \(attempt) took \(times[attempt])")
        }
        #expect(times.min()! < .seconds(1), "refusals took \(times)")
        let other = try RawHTTPClient(port: server.port, source: "127.0.0.2")
        #expect(await other.request("GET", "/other")?.status == 200)
        await server.shutdown()
    }
}

@Suite("HTTPServer shutdown in stages", .serialized)
struct ShutdownTests {
    @Test("Under load, shutdown answers every request in flight, closes keep-alive, and never aborts", arguments: 0..<3)
    func underLoad(round: Int) async throws {
        let server = try startServer(handler: ClosureHandler { request in
            try? await Task.sleep(for: .milliseconds(200))
            return .text("ok \(request.path)")
        }, configure: {
            // The drain is long enough for every 200 ms handler to finish on a starved machine, and
            // the request-line deadline is far past the test's length: this test is about shutdown,
            // and on a loaded machine the warm-up below can take longer than the 30 s default.
            $0.drainTimeoutSeconds = 20; $0.connectionTimeoutSeconds = 600; $0.ioThreads = 2
        })
        // Keep-alive clients that already had an answer and now idle.
        let idle = try (0..<8).map { _ in try RawHTTPClient(port: server.port) }
        for client in idle { #expect(await client.request("GET", "/warm")?.status == 200) }
        let clients = try (0..<24).map { _ in try RawHTTPClient(port: server.port) }
        let answers = Task {
            await withTaskGroup(of: RawResponse?.self) { group in
                for (i, client) in clients.enumerated() { group.addTask { await client.request("POST", "/r\(i)", body: Array("x".utf8)) } }
                return await group.reduce(into: [RawResponse?]()) { $0.append($1) }
            }
        }
        #expect(await eventually { server.inFlight == 24 })
        let start = ContinuousClock.now
        await server.shutdown()
        // At most drain + cancel grace + 2 s (HTTPServerConfiguration.cancelGraceSeconds); all
        // finish well inside the drain when the machine is not starved.
        #expect(ContinuousClock.now - start < .seconds(25))
        let responses = await answers.value
        #expect(responses.count == 24)
        #expect(responses.allSatisfy { $0?.status == 200 && $0?.header("connection") == "close" })
        for client in idle { #expect(await client.isClosedByServer()) }
    }

    @Test("A handler that ignores cancellation, and a stream that never ends, are answered for, then the server stops")
    func abandonedWork() async throws {
        let server = try startServer(handler: AnswersWhenAbandoned { request in
            if request.path == "/stream" {
                let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
                continuation.yield(Array("first\n".utf8))
                // Never finished: the server must end it.
                Task { try? await Task.sleep(for: .seconds(3600)); continuation.finish() }
                return HTTPResponse(status: 200, stream: stream)
            }
            // Ignores cancellation entirely: it waits on a task of its own, which is not cancelled.
            await Task { try? await Task.sleep(for: .seconds(60)) }.value
            return .text("too late")
        }, configure: { $0.drainTimeoutSeconds = 0.3; $0.cancelGraceSeconds = 0.3 })
        let stuck = try RawHTTPClient(port: server.port)
        let streaming = try RawHTTPClient(port: server.port)
        async let stuckAnswer = stuck.request("GET", "/stuck")
        await streaming.write(Array("GET /stream HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        let head = try #require(await streaming.readResponseHead())
        #expect(head.status == 200)
        #expect(await eventually { server.inFlight == 2 })
        let start = ContinuousClock.now
        await server.shutdown()
        // At most drain + grace + 2 s (2.6 s) when the machine is not starved; well under the
        // 60 s the handler would hold the connection if shutdown waited for it.
        #expect(ContinuousClock.now - start < .seconds(20))
        let answer = await stuckAnswer
        #expect(answer?.status == 503)
        // In the handler's own words (a protocol's envelope), not the server's plain default.
        #expect(answer?.text == "abandoned GET /stuck")
        // The stream ends with an error (no final chunk), so it cannot pass for a whole one.
        let rest = try #require(await streaming.readUntilClosed())
        #expect(!String(decoding: rest, as: UTF8.self).hasSuffix("0\r\n\r\n"))
    }
}

/// A closure handler with its own answer for requests that shutdown gives up on.
struct AnswersWhenAbandoned: HTTPHandler {
    let body: @Sendable (HTTPRequest) async -> HTTPResponse
    init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }
    func handle(_ request: HTTPRequest) async -> HTTPResponse { await body(request) }
    func abandonedResponse(for request: HTTPRequest) -> HTTPResponse {
        .text("abandoned \(request.method) \(request.path)", status: 503)
    }
}
