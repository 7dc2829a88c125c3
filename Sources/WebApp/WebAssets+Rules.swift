/// How a file under `WebRoot/` maps to its URL, content type and headers.
extension WebAssets {
    /// `index.html` is `/`; another page drops its `.html` (`overlay-demo.html` is `/overlay-demo`);
    /// scripts and styles keep their names (`js/api.js` is `/js/api.js`).
    static func urlPath(forFile path: String) -> String {
        if path == "index.html" { return "/" }
        if path.hasSuffix(".html") { return "/" + path.dropLast(5) }
        return "/" + path
    }

    /// The content type from the extension; text types say UTF-8, which the files are.
    static func contentType(forFile path: String) -> String {
        switch path.split(separator: ".").last.map(String.init) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "json": "application/json; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// The content security policy of the app's own pages: everything from this origin, nothing
    /// from anywhere else (the app must work offline), no inline script or style.
    static let pagePolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

    /// Caching and security headers. The URLs carry no version, so every file is `no-cache`:
    /// browsers keep a copy but revalidate it with the `ETag` (a cheap 304), so a new binary's app
    /// is picked up at once.
    static func headers(forFile path: String) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
        ]
        if path.hasSuffix(".html") {
            headers.append(("Content-Security-Policy", pagePolicy))
            headers.append(("Referrer-Policy", "no-referrer"))
        }
        if path == "overlay.js" {
            // Other sites include the overlay with <script src>: let pages that isolate themselves
            // (Cross-Origin-Embedder-Policy) load it too.
            headers.append(("Cross-Origin-Resource-Policy", "cross-origin"))
            headers.append(("Access-Control-Allow-Origin", "*"))
        }
        return headers
    }
}
