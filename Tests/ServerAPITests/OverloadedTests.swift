import Foundation
import HTTPTestSupport
import Testing
import TranslationCore

/// An engine whose queue is always full, as the neural engine's is under overload.
struct OverloadedEngine: TranslationEngine {
    let name = "busy"
    func pairs() async -> [LanguagePair] { [LanguagePair(source: "en", target: "es")] }
    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        throw TranslationError(.overloaded, "The neural engine is busy: 9 sentences are waiting (at most 8); retry shortly.")
    }
    func shutdown() async {}
}

@Suite("A full engine queue is a 503 in every protocol's envelope")
struct OverloadedTests {
    @Test func everyDialectAnswers503WithRetryAfter() async throws {
        let live = try await LiveServer.start(engine: OverloadedEngine())
        defer { Task { await live.stop() } }
        let google = try await live.get("/language/translate/v2?q=hi&source=en&target=es")
        #expect(google.status == 503)
        #expect(google.text.contains("\"status\": \"UNAVAILABLE\"") || google.text.contains("\"status\":\"UNAVAILABLE\""))
        let libre = try await live.post("/translate", #"{"q": "hi", "source": "en", "target": "es"}"#, contentType: "application/json")
        #expect(libre.status == 503)
        #expect(libre.text.hasPrefix("{\"error\":"))
        let deepl = try await live.post("/v2/translate", "text=hi&source_lang=EN&target_lang=ES",
                                        contentType: "application/x-www-form-urlencoded",
                                        headers: ["Authorization": "DeepL-Auth-Key k"])
        #expect(deepl.status == 503)
        #expect(deepl.text.hasPrefix("{\"message\":"))
        let apy = try await live.get("/translate?langpair=en%7Ces&q=hi")
        #expect(apy.status == 503)
        for response in [google, libre, deepl, apy] {
            #expect(response.header("retry-after") == "1")
            #expect(response.text.contains("busy"), "\(response.text)")
        }
        let ajax = try await live.get("/ajax/services/language/translate?v=1.0&q=hi&langpair=en%7Ces")
        #expect(ajax.text.contains("503") && ajax.text.contains("busy"), "\(ajax.text)")
    }
}
