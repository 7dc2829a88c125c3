import Foundation
import HTTPServer
import HTTPTestSupport
import Testing

/// Echoes what the server handed the handler, so each test can see the request as parsed.
private let echo = ClosureHandler { request in
    switch request.path {
    case "/slow":
        try? await Task.sleep(for: .milliseconds(800))
        return .text("slow done")
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
    default:
        if case .tooLarge(let limit) = request.bodyStatus {
            return .text("too large, limit \(limit)", status: 413)
        }
        let text = "\(request.method) \(request.path) ?\(request.query) x=\(request.headers["X-Test"] ?? "-") body=\(String(decoding: request.body, as: UTF8.self))"
        return .text(text)
    }
}

private func startServer(maxBody: Int = 1024, ioThreads: Int = 1) throws -> HTTPServer {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.maxBodyBytes = maxBody
    configuration.ioThreads = ioThreads
    configuration.maxHeaderBytes = 8192
    configuration.drainTimeoutSeconds = 5
    return try HTTPServer.start(configuration: configuration, handler: echo)
}

@Suite("HTTPServer over libmicrohttpd")
struct HTTPServerTests {
    @Test("GET passes method, raw path, raw query and headers; keep-alive serves a second request")
    func getAndKeepAlive() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        let first = try #require(await client.request("GET", "/a%20b?q=1+2&q=%C3%A9", headers: ["X-Test": "yes"]))
        #expect(first.status == 200)
        #expect(first.text == "GET /a%20b ?q=1+2&q=%C3%A9 x=yes body=")
        let second = try #require(await client.request("POST", "/p", body: Array("hello".utf8)))
        #expect(second.text == "POST /p ? x=- body=hello")
        await server.shutdown()
    }

    @Test("A declared oversize body is refused before any of it is sent, and the connection closes")
    func declaredOversizeBody() async throws {
        let server = try startServer(maxBody: 100)
        let client = try RawHTTPClient(port: server.port)
        // Only the head is sent: the answer must come without the server waiting for the body.
        await client.write(Array("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n".utf8))
        let response = try #require(await client.readResponse())
        #expect(response.status == 413)
        #expect(response.text == "too large, limit 100")
        #expect(await client.isClosedByServer())
        await server.shutdown()
    }

    @Test("A chunked upload is counted as it arrives and refused past the limit")
    func chunkedOversizeBody() async throws {
        let server = try startServer(maxBody: 100)
        let client = try RawHTTPClient(port: server.port)
        let chunk = String(repeating: "a", count: 80)
        let body = "50\r\n\(chunk)\r\n50\r\n\(chunk)\r\n0\r\n\r\n"
        await client.write(Array("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\(body)".utf8))
        let response = try #require(await client.readResponse())
        #expect(response.status == 413)
        // Under the limit the same framing is accepted.
        let ok = try #require(await client.request("POST", "/y", body: Array("small".utf8)))
        #expect(ok.text == "POST /y ? x=- body=small")
        await server.shutdown()
    }

    @Test("A streamed body arrives chunked, in order, complete")
    func streaming() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        let response = try #require(await client.request("GET", "/stream"))
        #expect(response.chunked)
        #expect(response.header("content-type") == "application/x-ndjson")
        #expect(response.text == (0..<5).map { "line \($0)\n" }.joined())
        // The connection is still usable afterwards.
        #expect(await client.request("GET", "/z")?.status == 200)
        await server.shutdown()
    }

    @Test("A slow handler does not hold up other connections on the same I/O thread")
    func slowHandlerDoesNotBlock() async throws {
        let server = try startServer(ioThreads: 1)
        let slowClient = try RawHTTPClient(port: server.port)
        let fastClient = try RawHTTPClient(port: server.port)
        let clock = ContinuousClock()
        async let slow = slowClient.request("GET", "/slow")
        try await Task.sleep(for: .milliseconds(100))
        let start = clock.now
        let fast = await fastClient.request("GET", "/fast")
        let fastTook = clock.now - start
        #expect(fast?.status == 200)
        #expect(fastTook < .milliseconds(600))
        #expect(await slow?.text == "slow done")
        await server.shutdown()
    }

    @Test("Shutdown finishes the request in flight, then refuses new connections")
    func gracefulShutdown() async throws {
        let server = try startServer()
        let port = server.port
        let client = try RawHTTPClient(port: port)
        async let slow = client.request("GET", "/slow")
        try await Task.sleep(for: .milliseconds(150))
        #expect(server.inFlight == 1)
        await server.shutdown()
        #expect(await slow?.text == "slow done")
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
    }

    @Test("Headers past the limit are refused by the HTTP library, not crashed on")
    func oversizeHeaders() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        let response = await client.request("GET", "/h", headers: ["X-Big": String(repeating: "b", count: 20000)])
        #expect(response == nil || response!.status == 431 || response!.status == 413)
        await server.shutdown()
    }

    @Test("A host that is not a numeric address is a clear start error")
    func badHost() {
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(configuration: .init(host: "not-an-ip", port: 0), handler: echo)
        }
    }
}
