import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A response as read off the wire by ``RawHTTPClient``.
public struct RawResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names lower-cased, in order.
    public var headers: [(String, String)]
    /// The body, de-chunked when it was chunked.
    public var body: [UInt8]
    /// Whether the body came chunked.
    public var chunked: Bool

    /// The first value of a header (name lower-case).
    public func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed as JSON.
    public var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
}

/// A deliberately small HTTP/1.1 client over a blocking socket, so tests control the exact bytes
/// sent (oversize declarations, keep-alive, partial bodies). Every call runs on its own thread:
/// blocking Swift's small cooperative pool would starve the server's handler tasks under test.
public final class RawHTTPClient: @unchecked Sendable {
    // Why unchecked: one client is used by one test at a time, each call on its own thread in turn.
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []
    public let port: Int

    /// Connects to 127.0.0.1:`port` with a 60 s receive timeout (generous: on a loaded test machine
    /// the server's handler tasks may wait long for a thread), from `source` (another loopback
    /// address such as 127.0.0.2 looks like another client to per-address limits).
    public init(port: Int, source: String? = nil) throws {
        self.port = port
        // Close-on-exec: tests in the same process start Apertium pipelines at any moment, and a
        // child that inherited this socket would keep it open after `close()`, so the server
        // would never see this client hang up.
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { Glibc.close(fd); throw POSIXError(.EADDRNOTAVAIL) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { Glibc.close(fd); throw POSIXError(.ECONNREFUSED) }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Sends `bytes` as they are.
    public func write(_ bytes: [UInt8]) async {
        await onThread { [self] in
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Sends a request and reads one response (nil when the server closed or timed out).
    public func request(_ method: String, _ target: String, headers: [String: String] = [:],
                        body: [UInt8] = []) async -> RawResponse? {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        await write(Array(head.utf8) + body)
        return await readResponse()
    }

    /// Reads one response.
    public func readResponse() async -> RawResponse? {
        await onThread { [self] in readResponseBlocking() }
    }

    /// Reads one response's status line and headers only (the answer to HEAD has no body).
    public func readResponseHead() async -> RawResponse? {
        await onThread { [self] in
            guard let headEnd = readUntil([13, 10, 13, 10]) else { return nil }
            let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
            buffer.removeFirst(headEnd + 4)
            return Self.parseHead(head).map { RawResponse(status: $0.status, headers: $0.headers, body: [], chunked: false) }
        }
    }

    /// Whether the server closes the connection (reads EOF) within `seconds`.
    public func isClosedByServer(waitingUpTo seconds: Int = 5) async -> Bool {
        await onThread { [self] in
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, 0) == 0
        }
    }

    /// Everything the server sends until it closes the connection (or `seconds` pass), after any
    /// response already read; nil when the connection was not closed in time.
    public func readUntilClosed(waitingUpTo seconds: Int = 5) async -> [UInt8]? {
        await onThread { [self] in
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var rest = buffer
            buffer = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n == 0 { return rest }
                if n < 0 { return errno == ECONNRESET ? rest : nil }
                rest += chunk[..<n]
            }
        }
    }

    /// Sends `bytes` one at a time, `interval` apart, until done or the server closes
    /// (returns how many were sent).
    public func trickle(_ bytes: [UInt8], interval: Duration) async -> Int {
        var sent = 0
        for byte in bytes {
            let ok = await onThread { [self] in withUnsafeBytes(of: byte) { Glibc.send(fd, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) } == 1 }
            guard ok else { break }
            sent += 1
            try? await Task.sleep(for: interval)
        }
        return sent
    }

    /// Closes the connection from this side.
    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func readResponseBlocking() -> RawResponse? {
        guard let headEnd = readUntil([13, 10, 13, 10]) else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        guard let (status, headers) = Self.parseHead(head) else { return nil }
        let header = { (name: String) in headers.first { $0.0 == name }?.1 }
        if header("transfer-encoding")?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while true {
                guard let lineEnd = readUntil([13, 10]) else { return nil }
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0]
                buffer.removeFirst(lineEnd + 2)
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
                guard fill(size + 2) else { return nil }
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { return RawResponse(status: status, headers: headers, body: body, chunked: true) }
            }
        }
        let length = Int(header("content-length") ?? "0") ?? 0
        guard fill(length) else { return nil }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return RawResponse(status: status, headers: headers, body: body, chunked: false)
    }

    private static func parseHead(_ head: String) -> (status: Int, headers: [(String, String)])? {
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (status, headers)
    }

    private func readUntil(_ marker: [UInt8]) -> Int? {
        while true {
            if buffer.count >= marker.count {
                for i in 0...(buffer.count - marker.count) where Array(buffer[i..<(i + marker.count)]) == marker { return i }
            }
            guard receiveMore() else { return nil }
        }
    }

    private func fill(_ count: Int) -> Bool {
        while buffer.count < count { guard receiveMore() else { return false } }
        return true
    }

    private func receiveMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer += chunk[..<n]
        return true
    }

    private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }
}
