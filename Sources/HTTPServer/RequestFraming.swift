/// The message-framing rules of RFC 9112 that libmicrohttpd 0.9.75 (Debian 12's) does not
/// enforce, checked on a request's head before anything is handed to a handler.
///
/// Why here: a request whose length is ambiguous is how requests are smuggled. libmicrohttpd
/// takes the first of two different `Content-Length`s and, given `Transfer-Encoding` with
/// `Content-Length`, reads the body as chunked and keeps the connection open; a proxy in front
/// that picks the other reading sees a different second request. RFC 9112 §6.1 and §6.3 require a
/// 400 and closing the connection. An unknown transfer coding leaves the body's end unknowable
/// (libmicrohttpd would wait for the connection to close): 501, and close.
///
/// What libmicrohttpd does check itself, before this runs: the request line, `Content-Length`
/// syntax when it is the only length (a 400 or 413 of its own), whitespace before a header's
/// colon (strictness -1, see `HTTPServer.start`), header size.
enum RequestFraming {
    /// Why a request is refused: the status and a sentence for the response body. The
    /// connection is always closed after it, since the rest of its bytes cannot be trusted.
    struct Rejection: Equatable, Sendable {
        let status: Int
        let reason: String
    }

    /// Checks the head of one request; nil when it may be served.
    /// - Parameters:
    ///   - version: the protocol from the request line (`HTTP/1.1`).
    ///   - target: the request target, raw bytes.
    ///   - fields: the header fields as raw bytes, in order.
    static func check(version: String, target: [UInt8], fields: [(name: [UInt8], value: [UInt8])]) -> Rejection? {
        if target.isEmpty || target.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return Rejection(status: 400, reason: "The request target is empty or contains spaces or control characters.")
        }
        for field in fields {
            if field.name.isEmpty || !field.name.allSatisfy(isTokenByte) {
                return Rejection(status: 400, reason: "A header field name is not a token (RFC 9110 §5.1).")
            }
            // HTAB and visible bytes only; obs-text (0x80-0xFF) is allowed here, its UTF-8 is
            // checked later. NUL, bare CR and other controls are how parsers are confused.
            if field.value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                return Rejection(status: 400, reason: "A header field value contains a control character.")
            }
        }
        let values = { (name: String) -> [String] in
            fields.filter { asciiLowercased($0.name) == name }.map { String(decoding: $0.value, as: UTF8.self) }
        }
        let hosts = values("host")
        if hosts.count > 1 {
            return Rejection(status: 400, reason: "The request has more than one Host header (RFC 9112 §3.2).")
        }
        if hosts.isEmpty && version != "HTTP/1.0" && version != "HTTP/0.9" {
            return Rejection(status: 400, reason: "An HTTP/1.1 request must have a Host header (RFC 9112 §3.2).")
        }
        let lengths = values("content-length").map(trimmed)
        let encodings = values("transfer-encoding")
        if !encodings.isEmpty {
            if version == "HTTP/1.0" {
                return Rejection(status: 400, reason: "Transfer-Encoding is not defined for HTTP/1.0 requests (RFC 9112 §6.1).")
            }
            if !lengths.isEmpty {
                return Rejection(status: 400, reason: "The request has both Transfer-Encoding and Content-Length (RFC 9112 §6.1).")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { trimmed(String($0)).lowercased() }.filter { !$0.isEmpty }
            if let unknown = codings.first(where: { $0 != "chunked" }) {
                return Rejection(status: 501, reason: "Transfer-Encoding '\(unknown)' is not supported; send the body with Content-Length or chunked.")
            }
            if codings.count != 1 {
                return Rejection(status: 400, reason: "Transfer-Encoding must be exactly 'chunked' (RFC 9112 §6.1).")
            }
        } else if Set(lengths).count > 1 {
            return Rejection(status: 400, reason: "The request has conflicting Content-Length headers (RFC 9112 §6.3).")
        } else if let length = lengths.first, length.isEmpty || !length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return Rejection(status: 400, reason: "The Content-Length header is not a decimal number (RFC 9110 §8.6).")
        }
        return nil
    }

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func asciiLowercased(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    private static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
