import Testing
import TranslationCore
import TranslationTesting
@testable import ApertiumEngine

/// The Apertium engine keeps the engine contract, on Debian's English → Spanish pair.
@Suite("Engine conformance: the Apertium engine", Requirement.apertium("eng-spa"))
struct ApertiumEngineConformanceTests {
    @Test func keepsTheEngineContract() async throws {
        let engine = ApertiumEngine()
        let conformance = EngineConformance(engine: engine, pair: LanguagePair(source: "en", target: "es"))
        do {
            try await conformance.all()
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }
}
