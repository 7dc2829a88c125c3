import Foundation
import HTTPServer
import HTTPTestSupport
import ServerAPI
import Testing
import TranslationTesting
import TranslationCore
import TranslationService

/// An engine that ignores cancellation: it waits on a task of its own, which shutdown does not
/// cancel, so the HTTP server has to answer for it once the cancellation grace is over.
struct StubbornEngine: TranslationEngine {
    let name = "stubborn"
    func pairs() async -> [LanguagePair] { [LanguagePair(source: "en", target: "es")] }
    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        await Task { try? await Task.sleep(for: .seconds(60)) }.value
        return texts
    }
    func shutdown() async {}
}

/// At shutdown, a request whose engine did not answer in time still gets its protocol's 503:
/// the server's own answer for it is rendered by the router in the endpoint's envelope.
@Suite("Shutdown answers abandoned requests in their protocol's envelope")
struct ShutdownEnvelopeTests {
    @Test("Each dialect's 503 for a request the server gave up on")
    func abandonedResponsesUseTheEnvelope() async throws {
        let service = await TranslationService(engines: [prefixEngine()], detector: FakeDetector.words)
        let router = makeGlossaRouter(service: service)
        func json(_ response: HTTPResponse) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any])
        }
        let google = router.abandonedResponse(for: HTTPRequest(method: "POST", path: "/language/translate/v2"))
        #expect(google.status == 503)
        #expect((try json(google)["error"] as? [String: Any])?["code"] as? Int == 503)
        let apy = router.abandonedResponse(for: HTTPRequest(method: "GET", path: "/translate", query: "langpair=en|es&q=a"))
        #expect(apy.status == 503)
        #expect(try json(apy)["status"] as? String == "error")
        #expect(try json(apy)["code"] as? Int == 503)
        let deepl = router.abandonedResponse(for: HTTPRequest(method: "POST", path: "/v2/translate"))
        #expect(deepl.status == 503)
        #expect(try json(deepl)["message"] is String)
        let unrouted = router.abandonedResponse(for: HTTPRequest(method: "GET", path: "/no-such-thing"))
        #expect(unrouted.status == 503)
        await service.shutdown()
    }

    @Test("A live server gives an engine that ignores cancellation's request a Google 503 envelope")
    func liveServerAnswersForAStubbornEngine() async throws {
        let service = await TranslationService(engines: [StubbornEngine()], detector: FakeDetector.words)
        var http = HTTPServerConfiguration()
        http.drainTimeoutSeconds = 0.3
        http.cancelGraceSeconds = 0.3
        let server = try LiveServer.start(service: service, http: http).server
        let client = try RawHTTPClient(port: server.port)
        async let answer = client.request("GET", "/language/translate/v2?q=hello&source=en&target=es")
        // Wait (up to 60 s, a loaded machine) until the request is with the engine.
        for _ in 0..<6000 where server.inFlight == 0 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(server.inFlight == 1)
        await server.shutdown()
        let response = try #require(await answer)
        #expect(response.status == 503)
        let body = try #require(response.json as? [String: Any])
        #expect((body["error"] as? [String: Any])?["code"] as? Int == 503, "\(response.text)")
        await service.shutdown()
    }
}
