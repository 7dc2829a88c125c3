import Synchronization
import Testing
import TranslationCore
import TranslationTesting
@testable import TranslationService

/// An engine that tags text with its pair, notes HTML requests, and records every text it was sent.
func countingEngine(served: [LanguagePair]) -> FakeEngine {
    FakeEngine(name: "counting", served: served, notesHTML: true)
}

@Suite("The translation cache")
struct CacheTests {
    func service(_ engine: FakeEngine, bytes: Int = 1 << 20) async -> TranslationService {
        var configuration = TranslationService.Configuration()
        configuration.cacheBytes = bytes
        return await TranslationService(engines: [engine], detector: FakeDetector.prefix, configuration: configuration)
    }

    @Test("a segment seen again is not translated again, and the answer is the engine's own")
    func hitsEqualFreshAnswers() async throws {
        let engine = countingEngine(served: pairs("en-es", "es-ca"))
        let cached = await service(engine)
        let fresh = await service(countingEngine(served: pairs("en-es", "es-ca")), bytes: 0)
        let first = try await cached.translate(["a", "b", "a"], from: "en", to: "es")
        let second = try await cached.translate(["a", "c"], from: "en", to: "es")
        #expect(engine.probe.received == ["a", "b", "c"])
        #expect(first == (try await fresh.translate(["a", "b", "a"], from: "en", to: "es")))
        #expect(second == (try await fresh.translate(["a", "c"], from: "en", to: "es")))
        #expect(cached.cacheStatistics.hits == 2 && cached.cacheStatistics.misses == 3)  // misses: what the engine was sent
        // Each step of a pivot route is kept on its own: en → es is a hit on the way to ca.
        let pivot = try await cached.translate(["a"], from: "en", to: "ca")
        #expect(pivot[0].translatedText == "a>es>ca" && engine.probe.received.suffix(1) == ["a>es"])
    }

    @Test("what changes the output is in the key: format and options")
    func optionsAreInTheKey() async throws {
        let engine = countingEngine(served: pairs("en-es"))
        let cached = await service(engine)
        _ = try await cached.translate(["a"], from: "en", to: "es")
        let html = try await cached.translate(["a"], from: "en", to: "es", options: TranslationOptions(format: .html))
        let beam = try await cached.translate(["a"], from: "en", to: "es", options: TranslationOptions(beamSize: 2))
        let threads = try await cached.translate(["a"], from: "en", to: "es", options: TranslationOptions(threads: 3))
        #expect(html[0].translatedText == "a>es(html)" && beam[0].translatedText == "a>es" && threads[0].translatedText == "a>es")
        // Threads change how fast, not what: the third call is a hit.
        #expect(engine.probe.received == ["a", "a", "a"])
    }

    @Test("a failed translation is not kept")
    func failuresAreNotKept() async throws {
        let engine = countingEngine(served: pairs("en-es"))
        let cached = await service(engine)
        await #expect(throws: TranslationError.self) { try await cached.translate(["a", "FAIL"], from: "en", to: "es") }
        _ = try await cached.translate(["a"], from: "en", to: "es")
        #expect(engine.probe.received == ["a", "FAIL", "a"])
    }

    @Test("the cache never passes its bound, and the oldest entries go first")
    func bounded() async throws {
        let engine = countingEngine(served: pairs("en-es"))
        let capacity = 40 * (TranslationCache.entryOverhead + 16)
        let cached = await service(engine, bytes: capacity)
        for i in 0..<200 {
            _ = try await cached.translate(["text \(i)"], from: "en", to: "es")
            #expect(cached.cacheStatistics.bytes <= capacity)
        }
        #expect(cached.cacheStatistics.entries > 10)
        _ = try await cached.translate(["text 199", "text 0"], from: "en", to: "es")
        #expect(engine.probe.received.suffix(1) == ["text 0"])  // the newest kept, the oldest gone
    }

    @Test("off with 0; emptied when the working pairs change")
    func offAndEmptiedOnChange() async throws {
        let engine = countingEngine(served: pairs("en-es"))
        let off = await service(engine, bytes: 0)
        _ = try await off.translate(["a", "a"], from: "en", to: "es")
        #expect(engine.probe.received == ["a", "a"] && off.cacheStatistics == TranslationCacheStatistics(hits: 0, misses: 0, entries: 0, bytes: 0, capacity: 0))
        let cache = TranslationCache(capacity: 1 << 20)
        let key = TranslationCache.Key(engine: 0, pair: try LanguagePair(parsing: "en-es"), options: TranslationOptions(), text: "a")
        cache.store([key], ["b"], generation: 0)
        #expect(cache.lookup([key], generation: 0) == ["b"])
        #expect(cache.lookup([key], generation: 1) == [nil])
        #expect(cache.statistics.entries == 0)
    }
}
