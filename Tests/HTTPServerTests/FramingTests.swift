import Foundation
import HTTPServer
import HTTPTestSupport
import Testing

/// Raw bytes on a real socket against the real server: every request with ambiguous framing gets
/// exactly one well-formed answer and the connection is closed, so bytes smuggled after it are
/// never served (RFC 9112 §6.1, §6.3, §3.2).
@Suite("HTTP framing under hostile clients")
struct FramingTests {
    /// A second request that must never be answered.
    private static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"

    /// Sends `head` (and `rest`), expects one response with `status`, then the end of the
    /// connection with no further byte (no second response).
    private func expectRefused(_ head: String, rest: String = smuggled, status: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let server = try startServer()
        defer { Task { await server.shutdown() } }
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array((head + rest).utf8))
        let response = try #require(await client.readResponse(), sourceLocation: sourceLocation)
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.header("connection") == "close", sourceLocation: sourceLocation)
        #expect(response.header("content-length") == String(response.body.count), sourceLocation: sourceLocation)
        #expect(await client.readUntilClosed() == [], "bytes after the answer", sourceLocation: sourceLocation)
    }

    @Test("Two different Content-Length headers: 400, closed, the smuggled request unserved")
    func conflictingLengths() async throws {
        try await expectRefused("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 41\r\n\r\nhello", status: 400)
    }

    @Test("Identical repeated Content-Length headers are one length (RFC 9112 §6.3 allows it)")
    func identicalLengths() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello".utf8))
        #expect(await client.readResponse()?.text == "POST /a ? x=- body=hello")
        await server.shutdown()
    }

    @Test("Content-Length with Transfer-Encoding: 400, closed", arguments: ["chunked", "gzip"])
    func lengthAndEncoding(encoding: String) async throws {
        try await expectRefused("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: \(encoding)\r\n\r\n0\r\n\r\n", status: 400)
    }

    @Test("An unsupported transfer coding: 501 at once, closed",
          arguments: ["gzip", "identity", "gzip, chunked", "deflate"])
    func unsupportedEncoding(encoding: String) async throws {
        try await expectRefused("POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(encoding)\r\n\r\n", rest: "abc", status: 501)
    }

    @Test("chunked twice, or Transfer-Encoding on HTTP/1.0: 400, closed")
    func malformedEncoding() async throws {
        try await expectRefused("POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", status: 400)
        try await expectRefused("POST /a HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400)
    }

    /// libmicrohttpd 0.9.75 answers these itself before any callback runs (see the README's
    /// "Hostile clients" section): one 400, and the connection closes without serving what
    /// follows. Its answer repeats its status line and headers, a bug of that version that no
    /// option or callback can reach, so only the first status and the close are asserted.
    @Test("A malformed Content-Length: 400, closed, nothing smuggled", arguments: ["-1", "1x", "+5", "0x10", "5, 5", ""])
    func malformedLength(value: String) async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: \(value)\r\n\r\nhello\(Self.smuggled)".utf8))
        let response = try #require(await client.readResponse())
        #expect(response.status == 400)
        #expect(response.header("connection") == "close")
        let rest = try #require(await client.readUntilClosed())
        #expect(!String(decoding: rest, as: UTF8.self).contains("smuggled"))
        #expect(await eventually { server.inFlight == 0 })
        await server.shutdown()
    }

    @Test("HTTP/1.1 without Host, or with two: 400, closed; HTTP/1.0 without Host is served")
    func host() async throws {
        try await expectRefused("GET /a HTTP/1.1\r\n\r\n", status: 400)
        try await expectRefused("GET /a HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400)
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array("GET /old HTTP/1.0\r\n\r\n".utf8))
        #expect(await client.readResponse()?.status == 200)
        await server.shutdown()
    }

    @Test("Whitespace before a colon, control bytes in a value, spaces in the target: 400, closed")
    func malformedHead() async throws {
        try await expectRefused("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length : 5\r\n\r\nhello", status: 400)
        try await expectRefused("GET /a HTTP/1.1\r\nHost: a\r\nX-A: b\u{1}c\r\n\r\n", status: 400)
        try await expectRefused("GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", status: 400)
    }

    @Test("HEAD carries the Content-Length GET would, and no body; the connection stays usable")
    func head() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        let get = try #require(await client.request("GET", "/h"))
        await client.write(Array("HEAD /h HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        // The echo handler's answer to HEAD is "HEAD /h ...", one byte longer than "GET /h ...".
        let head = try #require(await client.readResponseHead())
        #expect(head.status == 200)
        #expect(head.header("content-length") == String(get.body.count + 1))
        // No body bytes follow: the next response starts right away.
        #expect(await client.request("GET", "/next")?.text.hasPrefix("GET /next") == true)
        await server.shutdown()
    }

    @Test("A chunked upload past the limit gets 413 and the connection closes")
    func chunkedOverLimit() async throws {
        let server = try startServer(maxBody: 1 << 20)
        let client = try RawHTTPClient(port: server.port)
        var body = [UInt8]()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 16)
        for _ in 0..<(10 * 16) { body += Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8) }  // 10 MiB
        body += Array("0\r\n\r\n".utf8)
        await client.write(Array("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + body)
        let response = try #require(await client.readResponse())
        #expect(response.status == 413)
        #expect(response.header("connection") == "close")
        #expect(await client.readUntilClosed() == [])
        await server.shutdown()
    }

    @Test("Raw invalid UTF-8 in the query reaches the handler flagged and percent-encoded, never repaired")
    func invalidUTF8Target() async throws {
        let server = try startServer()
        let client = try RawHTTPClient(port: server.port)
        await client.write(Array("GET /utf8?q=caf".utf8) + [0xE9, 0xFF] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        let response = try #require(await client.readResponse())
        #expect(response.text == "invalid=[\"request target\"] query=q=caf%E9%FF path=/utf8")
        // Valid raw UTF-8 is passed as it is.
        await client.write(Array("GET /utf8?q=caf\u{e9} HTTP/1.1\r\nHost: a\r\nX-Bad: ".utf8) + [0xC3] + Array("\r\n\r\n".utf8))
        let second = try #require(await client.readResponse())
        #expect(second.text == "invalid=[\"header X-Bad\"] query=q=caf\u{e9} path=/utf8")
        await server.shutdown()
    }
}
