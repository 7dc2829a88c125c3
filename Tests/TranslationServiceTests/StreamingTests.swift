import Testing
import TranslationCore
import TranslationTesting
@testable import TranslationService

/// `translateEach`: one outcome per input, errors per input, every index once.
@Suite struct StreamingTests {
    private func service() async -> TranslationService {
        await TranslationService(engines: [FakeEngine(name: "fake", served: pairs("en-es", "es-ca"))], detector: FakeDetector.prefix)
    }

    @Test func yieldsExactlyOneOutcomePerInput() async throws {
        var outcomes: [Int: Result<TranslationResult, TranslationError>] = [:]
        for await outcome in await service().translateEach(["en:a", "b", "", "en:c", "ja:d"], from: nil, to: "es", maxConcurrent: 2) {
            #expect(outcomes[outcome.index] == nil, "index \(outcome.index) came twice")
            outcomes[outcome.index] = outcome.result
        }
        #expect(outcomes.count == 5)
        #expect(try outcomes[0]?.get().translatedText == "en:a>es")
        #expect(try outcomes[3]?.get().translatedText == "en:c>es")
        #expect(try outcomes[2]?.get().translatedText == "")
        // No language in it: it comes back unchanged, its source undetermined.
        #expect(try outcomes[1]?.get().translatedText == "b" && outcomes[1]?.get().source == nil)
        if case .failure(let error)? = outcomes[4] { #expect(error.kind == .unsupportedSourceLanguage) } else { Issue.record("ja must fail") }
    }

    @Test func pivotsPerText() async throws {
        for await outcome in await service().translateEach(["x"], from: "en", to: "ca") {
            #expect(try outcome.result.get().translatedText == "x>es>ca")
            #expect(try outcome.result.get().route?.isPivot == true)
        }
    }
}
