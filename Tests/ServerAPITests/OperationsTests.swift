import Foundation
import HTTPTestSupport
import Testing

@Suite("Health, metrics, OpenAPI and CORS")
struct OperationsTests {
    @Test("/health lists each engine's loaded pairs")
    func health() async throws {
        let live = try await LiveServer.start()
        let r = try await live.get("/health")
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

    @Test("/openapi.json documents exactly the served paths and methods")
    func openAPI() async throws {
        let live = try await LiveServer.start()
        let doc = try #require(try await live.get("/openapi.json").json as? [String: Any])
        #expect(doc["openapi"] as? String == "3.0.3")
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        let expected: [String: Set<String>] = [
            "/language/translate/v2": ["get", "post"], "/language/translate/v2/detect": ["get", "post"],
            "/language/translate/v2/languages": ["get", "post"],
            "/ajax/services/language/translate": ["get", "post"], "/ajax/services/language/detect": ["get", "post"],
            "/translate": ["get", "post"], "/listPairs": ["get", "post"], "/identifyLang": ["get", "post"],
            "/health": ["get"], "/metrics": ["get"], "/openapi.json": ["get"],
            "/glossa/v1/translate/stream": ["post"], "/glossa/v1/pairs": ["get"],
            "/detect": ["post"], "/languages": ["get"], "/frontend/settings": ["get"], "/spec": ["get"],
            "/translate_file": ["post"], "/download_file/{filename}": ["get"], "/suggest": ["post"],
            "/v2/translate": ["post"], "/v2/usage": ["get", "post"], "/v2/languages": ["get", "post"],
        ]
        #expect(paths.mapValues { Set($0.keys) } == expected)
        // Every documented operation answers something other than 404/405 on this server.
        for (path, methods) in expected {
            for method in methods {
                let r = try #require(await live.client().request(method.uppercased(), path.replacingOccurrences(of: "{filename}", with: "x.txt")))
                // A 404 must be the endpoint's own (LibreTranslate's file download), never the router's plain one.
                #expect(r.status != 405 && r.header("content-type") != "text/plain; charset=utf-8", "\(method) \(path) → \(r.status)")
            }
        }
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
