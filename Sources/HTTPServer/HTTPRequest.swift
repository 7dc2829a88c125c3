/// One HTTP request, fully received (or refused for size) before a handler sees it.
public struct HTTPRequest: Sendable {
    /// What happened to the body.
    public enum BodyStatus: Sendable, Equatable {
        /// The body (possibly empty) is in ``HTTPRequest/body``.
        case complete
        /// The body was larger than the server's limit and was not kept: ``HTTPRequest/body`` is
        /// empty. The handler answers 413 in its protocol's own error envelope.
        case tooLarge(limit: Int)
    }

    /// The method, upper-case as sent (`GET`, `POST`).
    public var method: String
    /// The path as sent, still percent-encoded (`/language/translate/v2`).
    public var path: String
    /// The query string as sent, without `?`, still percent-encoded; empty when absent.
    public var query: String
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body bytes; empty when there was none or when it was refused (see ``bodyStatus``).
    public var body: [UInt8]
    /// Whether the body was kept or refused for size.
    public var bodyStatus: BodyStatus
    /// The numeric address of the peer that sent the request (`127.0.0.1`, `::1`), for rate
    /// limits and logs; nil when unknown. It is the TCP peer: behind a proxy, the proxy.
    public var clientAddress: String?

    /// The parts of the request whose raw bytes are not valid UTF-8, in the order met
    /// (`"request target"`, `"header X-Name"`); empty for a well-formed request. Nothing is
    /// silently repaired for the handler: an invalid target is handed over percent-encoded (the
    /// same octets, so a strict decoder still finds them invalid), an invalid header value with
    /// U+FFFD in place of its bad bytes and named here. A protocol answers such a request with
    /// its own 400.
    public var invalidUTF8: [String]

    /// Makes a request (the server makes them; tests may too).
    public init(method: String, path: String, query: String = "", headers: HTTPHeaders = [:],
                body: [UInt8] = [], bodyStatus: BodyStatus = .complete, clientAddress: String? = nil, invalidUTF8: [String] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyStatus = bodyStatus
        self.clientAddress = clientAddress
        self.invalidUTF8 = invalidUTF8
    }

    /// The request target as text: as sent when it is valid UTF-8, else with every byte past
    /// ASCII percent-encoded (RFC 3986 §2.1: the same octets), so no byte is lost or replaced.
    static func text(ofTarget bytes: [UInt8]) -> (text: String, valid: Bool) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
        let hex = Array("0123456789ABCDEF".utf8)
        var escaped: [UInt8] = []
        for byte in bytes {
            if byte < 0x80 { escaped.append(byte) } else { escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
        }
        return (String(decoding: escaped, as: UTF8.self), false)
    }

    /// Splits a request target (`/p?a=1`) into path and query.
    static func split(target: String) -> (path: String, query: String) {
        guard let mark = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }
}
