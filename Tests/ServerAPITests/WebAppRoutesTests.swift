import HTTPTestSupport
import Testing

/// The web app through the router: every page and script at its path with its type, revalidation
/// with the entity tag, and the API's paths and documents untouched.
@Suite("Web app routes") struct WebAppRoutesTests {
    @Test("Pages, scripts and styles are served with their types and caching headers")
    func served() async throws {
        let live = try await LiveServer.start()
        let expected = ["/": "text/html", "/overlay-demo": "text/html", "/app.js": "text/javascript",
                        "/app.css": "text/css", "/overlay.js": "text/javascript", "/js/api.js": "text/javascript"]
        for (path, type) in expected {
            let r = try await live.get(path)
            #expect(r.status == 200, "\(path)")
            #expect(r.header("content-type")?.hasPrefix(type) == true, "\(path): \(r.header("content-type") ?? "none")")
            #expect(r.header("cache-control") == "no-cache")
            #expect(!r.body.isEmpty)
        }
        #expect(try await live.get("/").text.contains("<title>Glossa"))
        #expect(try await live.get("/").header("content-security-policy")?.contains("default-src 'self'") == true)
        await live.stop()
    }

    @Test("A known entity tag gets 304 with no body; a stale one gets the file")
    func revalidation() async throws {
        let live = try await LiveServer.start()
        let first = try await live.get("/app.js")
        let etag = try #require(first.header("etag"))
        let again = try await live.get("/app.js", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        let stale = try await live.get("/app.js", headers: ["If-None-Match": "\"0\""])
        #expect(stale.status == 200 && stale.body == first.body)
        await live.stop()
    }

    @Test("Other methods and unknown files get the usual errors; the API is unchanged")
    func errors() async throws {
        let live = try await LiveServer.start()
        let post = try await live.post("/", "x=1", contentType: "application/x-www-form-urlencoded")
        #expect(post.status == 405)
        #expect((post.json as? [String: Any])?["error"] != nil)
        #expect(try await live.get("/app.jsx").status == 404)
        #expect(try await live.get("/js/").status == 404)
        let languages = try await live.get("/language/translate/v2/languages")
        #expect(languages.status == 200)
        // The OpenAPI document lists the pages too, since the server answers them.
        let doc = try #require(try await live.get("/openapi.json").json as? [String: Any])
        let paths = try #require(doc["paths"] as? [String: Any])
        #expect(paths["/"] != nil && paths["/app.js"] != nil && paths["/overlay.js"] != nil)
        await live.stop()
    }
}
