import Foundation
import Testing
import TranslationCore
@testable import ApertiumEngine

/// The engine with the real Apertium pairs that `make test` installs.
@Suite(.serialized) struct EngineIntegrationTests {
    static let engSpa: LanguagePair = LanguagePair(source: "en", target: "es")

    static func requirePair(_ engine: ApertiumEngine, _ pair: LanguagePair) async throws {
        try #require(await engine.pairs().contains(pair), "Apertium pair \(pair.apertiumName) is not installed (make deps-test)")
    }

    @Test func goodMorningInSpanish() async throws {
        let engine = ApertiumEngine()
        defer { Task { await engine.shutdown() } }
        try await Self.requirePair(engine, Self.engSpa)
        let out = try await engine.translate(["Good morning"], pair: Self.engSpa, options: TranslationOptions())
        #expect(out.count == 1)
        #expect(out[0].contains("Buenos días"), "got \(out)")
    }
}
