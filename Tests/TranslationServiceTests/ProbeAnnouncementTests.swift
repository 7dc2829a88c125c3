import Testing
import TranslationCore
import TranslationTesting
@testable import TranslationService

/// An engine with pairs to check: `probe` reports as it goes and waits at a gate in between.
struct EngineWithChecks: TranslationEngine {
    let name = "checked"
    let gate = Gate()

    func pairs() async -> [LanguagePair] { [LanguagePair(source: "en", target: "es")] }
    func pairsToProbe(_ pairs: [LanguagePair]?) async -> Int { 3 }
    func probe(_ pairs: [LanguagePair]?, progress: @escaping @Sendable (Int, Int) -> Void) async {
        progress(0, 3)
        _ = await gate.wait()
        progress(3, 3)
    }
    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] { texts }
    func shutdown() async {}
}

/// A server announces its pair check before it listens, so no request reads the check as over
/// before it has begun.
@Suite struct ProbeAnnouncementTests {
    @Test func theCheckIsReportedFromItsAnnouncementToItsEnd() async throws {
        let engine = EngineWithChecks()
        let service = await TranslationService(engines: [engine, FakeEngine(served: [LanguagePair(source: "en", target: "fr")])], detector: FakeDetector.prefix)
        #expect(service.checking.isEmpty)
        await service.announceProbe()
        // Engines with nothing to check (the fake one) are not listed.
        #expect(service.checking == ["checked": PairCheckProgress(checked: 0, total: 3)])
        let probing = Task { await service.probe() }
        #expect(try await eventually { service.checking == ["checked": PairCheckProgress(checked: 0, total: 3)] })
        engine.gate.open()
        await probing.value
        #expect(service.checking.isEmpty)
        await service.shutdown()
    }
}
