import Foundation
import ServerAPI
import Testing
import ServerTestSupport
import TranslationTesting
import TranslationKit
import TranslationService

/// `GoogleTranslationClient` against a real Glossa server's Google v2 endpoints.
@Suite struct GoogleClientTests {
    private func client() async throws -> GoogleTranslationClient {
        let service = await TranslationService(engines: [FakeEngine(name: "fake", served: fakePairs, probe: EngineProbe())],
                                               detector: FakeDetector.prefix)
        let live = try LiveServer.start(service: service).keptForTheProcess()
        return GoogleTranslationClient(baseURL: URL(string: live.url)!, apiKey: "test-key")
    }

    @Test func translatesABatchInOrder() async throws {
        let out = try await client().translate(["one", "two", "three"], to: "es", from: "en")
        #expect(out.map(\.translatedText) == ["one>es", "two>es", "three>es"])
        #expect(out.allSatisfy { $0.detectedSourceLanguage == nil })
    }

    @Test func reportsTheDetectedSourceWhenNoneIsGiven() async throws {
        let out = try await client().translate(["fr:bonjour", "en:hello"], to: "es")
        #expect(out.map(\.detectedSourceLanguage) == ["fr", "en"])
    }

    @Test func detectsABatch() async throws {
        let out = try await client().detect(["ca:bon dia", "es:hola", "???"])
        #expect(out.map(\.language) == ["ca", "es", "und"])
    }

    @Test func listsLanguagesWithLocalizedNames() async throws {
        let client = try await client()
        let bare = try await client.languages()
        #expect(bare.contains { $0.language == "es" && $0.name == nil })
        let german = try await client.languages(displayLanguage: "de")
        #expect(german.first { $0.language == "es" }?.name == "Spanisch")
    }

    @Test func parsesTheErrorEnvelope() async throws {
        let client = try await client()
        let error = await #expect(throws: GoogleTranslationError.badRequest) {
            try await client.translate(["hello"], to: "ja", from: "en")
        }
        #expect(error?.statusCode == 400)
        #expect(error?.status == "INVALID_ARGUMENT")
        #expect(error?.message.contains("Japanese") == true)
        #expect(error?.reason != nil)
    }
}
