import Synchronization
import TranslationCore

/// What the fake engine saw, shared with the test.
final class EngineProbe: Sendable {
    private let counts = Mutex((started: 0, texts: [String]()))
    /// Texts containing `SLOW` wait for this gate.
    let slowGate = Gate()
    /// Texts containing `HOLD` wait for this gate (the cancellation test's tail).
    let holdGate = Gate()

    /// Texts the engine started translating.
    var started: Int { counts.withLock { $0.started } }

    func record(_ text: String) { counts.withLock { $0.started += 1; $0.texts.append(text) } }
}

/// A fake engine for logic tests: "translates" by tagging each text with the target
/// (`hello` en→es is `hello>es`), so a test sees exactly which steps a text took. `SLOW` and
/// `HOLD` texts wait for the probe's gates; `FAIL` texts fail as an engine would.
struct FakeEngine: TranslationEngine {
    let name: String
    let served: [LanguagePair]
    let probe: EngineProbe

    func pairs() async -> [LanguagePair] { served }

    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        guard served.contains(pair) else { throw TranslationError(.unsupportedPair, "fake does not serve \(pair)") }
        var out: [String] = []
        for text in texts {
            probe.record(text)
            if text.contains("SLOW") { _ = await probe.slowGate.wait() }
            if text.contains("HOLD") { _ = await probe.holdGate.wait() }
            if text.contains("FAIL") { throw TranslationError(.engineFailure, "The fake engine failed on '\(text)'.") }
            out.append(text.isEmpty ? "" : "\(text)>\(pair.target.bcp47)")
        }
        return out
    }

    func shutdown() async {}
}

/// A fake detector that reads the language from a `lang:` prefix, and knows nothing otherwise.
struct PrefixDetector: LanguageDetector {
    func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        texts.map { text in
            guard let colon = text.firstIndex(of: ":"), let code = try? LanguageCode(parsing: String(text[..<colon])) else {
                return .unknown
            }
            return Detection(language: code, confidence: 0.9, isReliable: true)
        }
    }
}

/// The pairs the fake engine serves: English ↔ Spanish, Spanish ↔ Catalan, French → Spanish.
let fakePairs: [LanguagePair] = ["en-es", "es-en", "es-ca", "ca-es", "fr-es"].map { try! LanguagePair(parsing: $0) }
