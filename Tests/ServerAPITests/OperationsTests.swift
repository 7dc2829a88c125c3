import Foundation
import HTTPTestSupport
import Testing
@testable import ServerAPI

@Suite("Health, metrics, OpenAPI and CORS")
struct OperationsTests {
    @Test("/health answers LibreTranslate's exact body; /glossa/v1/health lists each engine's loaded pairs")
    func health() async throws {
        let live = try await LiveServer.start()
        let summary = try await live.get("/health")
        #expect(summary.status == 200)
        #expect(summary.text == #"{"status":"ok"}"#)
        let r = try await live.get("/glossa/v1/health")
        #expect(r.status == 200)
        let json = try #require(r.json as? [String: Any])
        #expect(json["status"] as? String == "ok")
        #expect(json["pairs"] as? Int == 3)
        let engine = try #require((json["engines"] as? [[String: Any]])?.first)
        #expect(engine["engine"] as? String == "fake")
        #expect(engine["loaded"] as? [String] == ["en→es", "es→en", "en→fr"])
        await live.stop()
    }

    @Test("/metrics counts requests, errors, characters and latency per endpoint")
    func metrics() async throws {
        let live = try await LiveServer.start()
        _ = try await live.get("/language/translate/v2?q=hello&q=abc&target=es&source=en")
        _ = try await live.get("/language/translate/v2?q=hello&target=de&source=en")
        _ = try await live.get("/nowhere")
        let text = try await live.get("/metrics").text
        #expect(text.contains(#"glossa_http_requests_total{endpoint="google_v2_translate",code="200"} 1"#))
        #expect(text.contains(#"glossa_http_requests_total{endpoint="google_v2_translate",code="400"} 1"#))
        #expect(text.contains(#"glossa_http_errors_total{endpoint="google_v2_translate",kind="unsupported_target_language"} 1"#))
        #expect(text.contains(#"glossa_http_requests_total{endpoint="unmatched",code="404"} 1"#))
        #expect(text.contains(#"glossa_characters_translated_total{endpoint="google_v2_translate"} 8"#))
        #expect(text.contains(#"glossa_http_request_duration_seconds_bucket{endpoint="google_v2_translate",le="+Inf"} 2"#))
        #expect(text.contains(#"glossa_http_request_duration_seconds_count{endpoint="google_v2_translate"} 2"#))
        await live.stop()
    }

    @Test("/openapi.json documents exactly the paths and methods the router serves, and each answers")
    func openAPI() async throws {
        let live = try await LiveServer.start()
        let doc = try #require(try await live.get("/openapi.json").json as? [String: Any])
        #expect(doc["openapi"] as? String == "3.0.3")
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        let documented = paths.mapValues { Set($0.keys.map { $0.uppercased() }) }
        // The router's own table, not a list kept by hand: an endpoint added anywhere must be documented.
        let served = live.glossa.router.servedRoutes
        #expect(documented == served)
        // The protocols' own paths and the pages are among them.
        for path in ["/language/translate/v2", "/ajax/services/language/translate", "/translate", "/listPairs", "/v2/translate",
                     "/detect", "/spec", "/health", "/glossa/v1/health", "/metrics", "/openapi.json", "/glossa/v1/translate/stream", "/glossa/v1/pairs",
                     "/", "/overlay.js", "/overlay-demo", "/app.js", "/app.css",
                     "/list", "/translateChain", "/translateDoc", "/translatePage", "/analyze", "/analyse", "/generate", "/perWord",
                     "/calcCoverage", "/listLanguageNames", "/stats", "/getLocale", "/pipedebug",
                     "/translate_file", "/download_file/{filename}", "/v2/document", "/v2/document/{document_id}",
                     "/v2/document/{document_id}/result"] {
            #expect(served[path] != nil, "\(path) is served")
        }
        // Every documented operation answers something other than the router's 404/405 on this server.
        for (path, methods) in documented {
            for method in methods {
                let r = try #require(await live.client().request(method, path.replacingOccurrences(of: "{filename}", with: "x.txt")))
                // A 404 must be the endpoint's own (LibreTranslate's file download), never the router's plain one.
                #expect(r.status != 405 && r.header("content-type") != "text/plain; charset=utf-8", "\(method) \(path) → \(r.status)")
            }
        }
        // OpenAPI wants operation IDs unique.
        let ids = paths.values.flatMap { $0.values.compactMap { ($0 as? [String: Any])?["operationId"] as? String } }
        #expect(Set(ids).count == ids.count)
        await live.stop()
    }

    @Test("/openapi.json: POST parameters are a body, both health checks document 503, web files their media types")
    func openAPIBodiesAndAnswers() async throws {
        let live = try await LiveServer.start()
        let doc = try #require(try await live.get("/openapi.json").json as? [String: Any])
        let paths = try #require(doc["paths"] as? [String: [String: [String: Any]]])
        let post = try #require(paths["/language/translate/v2"]?["post"])
        // q and target travel in the body of a POST: no required query parameter says otherwise.
        let query = (post["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "query" }
        #expect(query.allSatisfy { $0["required"] as? Bool != true })
        let content = try #require((post["requestBody"] as? [String: Any])?["content"] as? [String: [String: Any]])
        #expect(Set(content.keys) == ["application/x-www-form-urlencoded", "application/json"])
        let schema = try #require(content["application/json"]?["schema"] as? [String: Any])
        #expect(Set(schema["required"] as? [String] ?? []) == ["q", "target"])
        // GET keeps them in the query, required where they are.
        let get = try #require(paths["/language/translate/v2"]?["get"]?["parameters"] as? [[String: Any]])
        #expect(get.contains { $0["name"] as? String == "q" && $0["in"] as? String == "query" && $0["required"] as? Bool == true })
        for path in ["/health", "/glossa/v1/health"] {
            let health = try #require(paths[path]?["get"]?["responses"] as? [String: Any])
            #expect(health["200"] != nil && health["503"] != nil)
        }
        let page = try #require(paths["/"]?["get"]?["responses"] as? [String: [String: Any]])
        #expect((page["200"]?["content"] as? [String: Any])?["text/html; charset=utf-8"] != nil || (page["200"]?["content"] as? [String: Any])?.keys.contains { $0.hasPrefix("text/html") } == true)
        #expect(page["304"] != nil)
        await live.stop()
    }

    @Test("OPTIONS answers the CORS pre-flight; every answer allows any origin")
    func cors() async throws {
        let live = try await LiveServer.start()
        let preflight = try #require(await live.client().request("OPTIONS", "/translate"))
        #expect(preflight.status == 204)
        #expect(preflight.header("access-control-allow-methods") == "GET, POST, OPTIONS")
        #expect(try await live.get("/health").header("access-control-allow-origin") == "*")
        await live.stop()
    }
}
