/// One file of the web app, ready to serve: its URL path, bytes and response headers.
public struct WebAsset: Sendable {
    /// The URL path it is served at (`/`, `/app.js`, `/overlay-demo`).
    public let urlPath: String
    /// The `Content-Type` value, with a charset for text.
    public let contentType: String
    /// The file's bytes.
    public let body: [UInt8]
    /// The strong entity tag, quoted as it goes on the wire (`"9f2c…"`).
    public let etag: String
    /// Response headers besides `Content-Type`, `Content-Length` and `ETag`: caching and security.
    public let extraHeaders: [(name: String, value: String)]

    /// Whether an `If-None-Match` value names this version, so a `304 Not Modified` suffices.
    /// Accepts a list (`"a", "b"`), weak tags (`W/"a"`, compared weakly as RFC 9110 §13.1.2 says)
    /// and `*`.
    public func matches(ifNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingSpaces()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            if tag == etag { return true }
        }
        return false
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
