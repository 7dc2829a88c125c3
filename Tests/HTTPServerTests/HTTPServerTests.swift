import Foundation
import HTTPServer
import HTTPTestSupport
import Testing

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

    @Test("A declared oversize body is refused before any of it is sent to a client that waits for 100 Continue, or past the discard bound")
    func declaredOversizeBody() async throws {
        let server = try startServer(maxBody: 100)
        let client = try RawHTTPClient(port: server.port)
        // Only the head is sent: the answer must come without the server waiting for the body.
        await client.write(Array("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n".utf8))
        let response = try #require(await client.readResponse())
        #expect(response.status == 413)
        #expect(response.text == "too large, limit 100")
        #expect(await client.isClosedByServer())
        // A declared body past the limit plus maxDiscardedBodyBytes (64 MiB) is not waited for either.
        let huge = try RawHTTPClient(port: server.port)
        await huge.write(Array("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 100000000\r\n\r\n".utf8))
        #expect(try #require(await huge.readResponse()).status == 413)
        await server.shutdown()
    }

    @Test("A declared oversize body already on its way is read to its end, then refused: a proxy sending it gets the 413, not a reset")
    func declaredOversizeBodyIsDrained() async throws {
        let server = try startServer(maxBody: 100)
        let client = try RawHTTPClient(port: server.port)
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20)
        await client.write(Array("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        let response = try #require(await client.readResponse())
        #expect(response.status == 413)
        #expect(response.text == "too large, limit 100")
        #expect(response.header("connection") == "close")
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
        #expect(response.header("connection") == "close")
        #expect(await client.isClosedByServer())
        // Under the limit the same framing is accepted.
        let other = try RawHTTPClient(port: server.port)
        await other.write(Array("POST /y HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nsmall\r\n0\r\n\r\n".utf8))
        #expect(await other.readResponse()?.text == "POST /y ? x=- body=small")
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

    @Test("A stream larger than the buffer arrives whole and in order")
    func bigStream() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        let response = try #require(await client.request("GET", "/big-stream"))
        #expect(response.body.count == 128 * 65536)
        let body = response.body
        let expected = (0..<128).flatMap { [UInt8](repeating: UInt8($0), count: 65536) }
        #expect(body == expected)
        await server.shutdown()
    }

    @Test("A handler that waits does not hold up other connections on the same I/O thread")
    func waitingHandlerDoesNotBlock() async throws {
        let gate = Gate()
        // The second client connects only once the first request is in flight: on a loaded CI
        // machine an idle connection opened early was closed by the server's idle timeout (then
        // 30 s) before it sent its request, which is not what is tested here.
        let server = try startServer(ioThreads: 1, gate: gate)
        let gatedClient = try RawHTTPClient(port: server.port)
        async let gated = gatedClient.request("GET", "/gated")
        #expect(await eventually { server.inFlight == 1 })
        let otherClient = try RawHTTPClient(port: server.port)
        // Answered while the gated request is still waiting: the I/O thread is free.
        #expect(await otherClient.request("GET", "/other")?.status == 200)
        #expect(server.inFlight == 1)
        await gate.release()
        #expect(await gated?.text == "gated done")
        await server.shutdown()
    }

    @Test("Shutdown finishes the request in flight, then refuses new connections")
    func gracefulShutdown() async throws {
        let gate = Gate()
        let server = try startServer(gate: gate)
        let port = server.port
        let client = try RawHTTPClient(port: port)
        async let gated = client.request("GET", "/gated")
        #expect(await eventually { server.inFlight == 1 })
        let stopping = Task { await server.shutdown() }
        // Shutdown waits for the request; new connections are already refused.
        #expect(await eventually { (try? RawHTTPClient(port: port)) == nil })
        await gate.release()
        #expect(await gated?.text == "gated done")
        await stopping.value
        #expect(server.inFlight == 0)
    }

    @Test("Past the drain deadline, shutdown cancels the handler, which still answers")
    func drainDeadline() async throws {
        let server = try startServer(drain: 0.5)
        let client = try RawHTTPClient(port: server.port)
        async let forever = client.request("GET", "/forever")
        #expect(await eventually { server.inFlight == 1 })
        await server.shutdown()
        let response = await forever
        #expect(response?.status == 503)
        #expect(response?.text == "cancelled")
    }

    @Test("Headers past the limit are refused by the HTTP library, not crashed on")
    func oversizeHeaders() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        let response = await client.request("GET", "/h", headers: ["X-Big": String(repeating: "b", count: 20000)])
        #expect(response == nil || response!.status == 431 || response!.status == 413)
        await server.shutdown()
    }

    @Test("Expect: 100-continue gets its interim answer, then the body is read")
    func expectContinue() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array("POST /c HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n".utf8))
        let interim = try #require(await client.readResponse())
        #expect(interim.status == 100)
        await client.write(Array("hello".utf8))
        let response = try #require(await client.readResponse())
        #expect(response.text == "POST /c ? x=- body=hello")
        await server.shutdown()
    }

    @Test("A client that stops sending mid-request is disconnected after the timeout")
    func slowClientTimeout() async throws {
        let server = try startServer(timeout: 1)
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array("POST /t HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nonly part".utf8))
        // The server closes it on its own (isClosedByServer reads EOF; a read timeout would be false).
        #expect(await client.isClosedByServer(waitingUpTo: 20))
        #expect(await eventually { server.inFlight == 0 })
        // The server still serves others.
        #expect(await (try RawHTTPClient(port: server.port)).request("GET", "/ok")?.status == 200)
        await server.shutdown()
    }

    @Test("A host that is not a numeric address is a clear start error; localhost is loopback")
    func badHost() async throws {
        let local = try HTTPServer.start(configuration: .init(host: "localhost", port: 0), handler: echo(Gate()))
        #expect(await (try RawHTTPClient(port: local.port)).request("GET", "/l")?.status == 200)
        await local.shutdown()
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(configuration: .init(host: "not-an-ip", port: 0), handler: echo(Gate()))
        }
    }
}
