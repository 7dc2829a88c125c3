import Testing
@testable import WebApp

/// The embedded web app: every file is in the binary, at the right URL, with the right headers.
@Suite struct WebAssetsTests {
    @Test func servesTheAppTheOverlayAndTheDemoAtTheirURLs() throws {
        for path in ["/", "/app.js", "/app.css", "/overlay.js", "/overlay-demo", "/overlay-demo.css", "/js/api.js", "/js/editor.js", "/favicon.svg"] {
            #expect(WebAssets.asset(at: path) != nil, "missing \(path)")
        }
        #expect(WebAssets.asset(at: "/index.html") == nil)
        #expect(WebAssets.asset(at: "/overlay-demo.html") == nil)
        #expect(WebAssets.asset(at: "/nope.js") == nil)
    }

    @Test func bodiesAreTheFilesBytes() throws {
        let page = try #require(WebAssets.file(path: "/"))
        let html = String(decoding: page.data, as: UTF8.self)
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains(#"<script type="module" src="/app.js"></script>"#))
        #expect(page.contentType == "text/html; charset=utf-8")
        #expect(WebAssets.file(path: "/app.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(WebAssets.file(path: "/app.css")?.contentType == "text/css; charset=utf-8")
        let demo = String(decoding: try #require(WebAssets.file(path: "/overlay-demo")).data, as: UTF8.self)
        #expect(demo.contains(#"<script src="/overlay.js""#))
    }

    /// The app must work offline: no file may load anything from another host.
    @Test func nothingComesFromTheNetwork() throws {
        for path in WebAssets.urlPaths {
            // An XML namespace is a name, not something a browser loads.
            let text = String(decoding: try #require(WebAssets.file(path: path)).data, as: UTF8.self)
                .replacingOccurrences(of: #"xmlns="http://www.w3.org/2000/svg""#, with: "")
            for marker in ["http://", "https://", "//cdn", "@import url("] {
                #expect(!text.contains(marker), "\(path) mentions \(marker)")
            }
        }
    }

    @Test func revalidatesWithTheEntityTag() throws {
        let first = try #require(WebAssets.response(method: "GET", path: "/app.js", ifNoneMatch: nil))
        #expect(first.status == 200)
        let etag = try #require(first.headers.first { $0.name == "ETag" }?.value)
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(first.headers.contains { $0 == ("Cache-Control", "no-cache") })
        let again = try #require(WebAssets.response(method: "GET", path: "/app.js", ifNoneMatch: "\"x\", W/\(etag)"))
        #expect(again.status == 304 && again.body.isEmpty)
        #expect(!again.headers.contains { $0.name == "Content-Type" })
        let other = try #require(WebAssets.response(method: "GET", path: "/app.js", ifNoneMatch: "\"stale\""))
        #expect(other.status == 200 && !other.body.isEmpty)
        // Different files, different tags.
        let css = try #require(WebAssets.asset(at: "/app.css"))
        #expect(css.etag != etag)
    }

    @Test func headAndOtherMethods() throws {
        let head = try #require(WebAssets.response(method: "HEAD", path: "/", ifNoneMatch: nil))
        // The same answer as GET: the HTTP server sends the length and leaves the body out.
        let get = try #require(WebAssets.response(method: "GET", path: "/", ifNoneMatch: nil))
        #expect(head.status == 200 && head.body == get.body)
        #expect(head.headers.contains { $0.name == "Content-Type" })
        let post = try #require(WebAssets.response(method: "POST", path: "/", ifNoneMatch: nil))
        #expect(post.status == 405)
        #expect(post.headers.contains { $0 == ("Allow", "GET, HEAD") })
        #expect(WebAssets.response(method: "GET", path: "/language/translate/v2", ifNoneMatch: nil) == nil)
    }

    @Test func pagesForbidForeignContentAndTheOverlayMayBeEmbedded() throws {
        let page = try #require(WebAssets.asset(at: "/"))
        let policy = try #require(page.extraHeaders.first { $0.name == "Content-Security-Policy" }?.value)
        #expect(policy.contains("default-src 'self'"))
        let overlay = try #require(WebAssets.asset(at: "/overlay.js"))
        #expect(overlay.extraHeaders.contains { $0 == ("Cross-Origin-Resource-Policy", "cross-origin") })
        #expect(!overlay.extraHeaders.contains { $0.name == "Content-Security-Policy" })
    }

    @Test func urlRules() {
        #expect(WebAssets.urlPath(forFile: "index.html") == "/")
        #expect(WebAssets.urlPath(forFile: "overlay-demo.html") == "/overlay-demo")
        #expect(WebAssets.urlPath(forFile: "js/api.js") == "/js/api.js")
        #expect(WebAssets.contentType(forFile: "favicon.svg") == "image/svg+xml")
        #expect(WebAssets.contentType(forFile: "x.bin") == "application/octet-stream")
    }
}
