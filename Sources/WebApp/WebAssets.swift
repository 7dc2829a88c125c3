import Foundation

/// The Glossa web app (`/`), the embeddable overlay (`/overlay.js`) and its demo page
/// (`/overlay-demo`), embedded in the binary at build time from `Sources/WebApp/WebRoot/`.
///
/// The server registers every path in ``urlPaths`` and answers with ``response(method:path:ifNoneMatch:)``:
/// ```swift
/// if let answer = WebAssets.response(method: request.method, path: request.path,
///                                    ifNoneMatch: request.headers["If-None-Match"]) { ... }
/// ```
/// The files need nothing from the network (no CDN, no fonts): the app works offline.
public enum WebAssets {
    /// Every served file, by URL path. Built once from the embedded base64 text.
    static let byURLPath: [String: WebAsset] = {
        var assets: [String: WebAsset] = [:]
        for entry in WebRootFiles.all {
            // The generator wrote valid base64; an entry that fails to decode would be a generator bug.
            guard let data = Data(base64Encoded: entry.base64) else { continue }
            let urlPath = urlPath(forFile: entry.path)
            let type = contentType(forFile: entry.path)
            assets[urlPath] = WebAsset(urlPath: urlPath, contentType: type, body: [UInt8](data),
                                       etag: "\"\(entry.etag)\"", extraHeaders: headers(forFile: entry.path))
        }
        return assets
    }()

    /// The URL paths of every file, sorted (`/`, `/app.css`, `/app.js`, `/js/api.js`, …).
    public static var urlPaths: [String] { byURLPath.keys.sorted() }

    /// The file served at `urlPath`, or nil when the web app has none there.
    public static func asset(at urlPath: String) -> WebAsset? { byURLPath[urlPath] }

    /// The bytes and content type of the file served at `path`, or nil.
    public static func file(path: String) -> (data: [UInt8], contentType: String)? {
        byURLPath[path].map { ($0.body, $0.contentType) }
    }

    /// The full answer for a request: 200 with the file, 304 when `ifNoneMatch` names the current
    /// version, 405 for a method other than GET or HEAD. HEAD gets the same answer as GET: the
    /// HTTP server sends its headers, with the body's `Content-Length`, and leaves the body out
    /// (RFC 9110 §9.3.2). Nil when
    /// `path` is not a web app path, so the caller answers as it does for any unknown path.
    public static func response(method: String, path: String, ifNoneMatch: String?) -> WebResponse? {
        guard let asset = byURLPath[path] else { return nil }
        guard method == "GET" || method == "HEAD" else {
            return WebResponse(status: 405, headers: [("Allow", "GET, HEAD"), ("Content-Type", "text/plain; charset=utf-8")],
                               body: Array("\(method) is not allowed on \(path); use GET.\n".utf8))
        }
        var headers: [(name: String, value: String)] = [("ETag", asset.etag)] + asset.extraHeaders
        if asset.matches(ifNoneMatch: ifNoneMatch) {
            return WebResponse(status: 304, headers: headers, body: [])
        }
        headers.insert(("Content-Type", asset.contentType), at: 0)
        return WebResponse(status: 200, headers: headers, body: asset.body)
    }
}

/// A complete HTTP answer for a web app path, independent of the server library.
public struct WebResponse: Sendable {
    /// The status code: 200, 304 or 405.
    public let status: Int
    /// The header fields, in order.
    public let headers: [(name: String, value: String)]
    /// The body (empty for 304; for HEAD the server sends none, but its length).
    public let body: [UInt8]
}
