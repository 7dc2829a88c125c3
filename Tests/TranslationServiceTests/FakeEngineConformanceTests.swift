import Testing
import TranslationCore
import TranslationTesting

/// The fake engine the service, protocol and SDK tests run on keeps the engine contract, so what
/// those tests see is what a real engine would give them.
@Suite("Engine conformance: the fake engine")
struct FakeEngineConformanceTests {
    static let pair = LanguagePair(source: "en", target: "es")

    @Test(arguments: [FakeEngine.Style.tagged, .prefixed])
    func keepsTheEngineContract(style: FakeEngine.Style) async throws {
        let engine = FakeEngine(served: [Self.pair], style: style, marksUnknownWords: true, notesHTML: true)
        try await EngineConformance(engine: engine, pair: Self.pair).all()
    }

    /// The suite can fail: an engine that drops a text, or answers an unserved pair, is caught.
    @Test func catchesAnEngineThatBreaksTheContract() async throws {
        struct Dropping: TranslationEngine {
            let name = "dropping"
            func pairs() async -> [LanguagePair] { [FakeEngineConformanceTests.pair] }
            func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
                Array(texts.map { $0.replacing(/<[^>]*>/, with: "") }.dropLast())
            }
            func shutdown() async {}
        }
        let conformance = EngineConformance(engine: Dropping(), pair: Self.pair)
        await withKnownIssue("the dropping engine fails every check") {
            try await conformance.faithfulness()
        }
        await withKnownIssue("the dropping engine loses tags") {
            try await conformance.markup()
        }
        await withKnownIssue("the dropping engine answers a pair it does not serve") {
            try await conformance.errors()
        }
    }
}
