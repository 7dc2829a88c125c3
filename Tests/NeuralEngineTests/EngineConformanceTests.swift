import Foundation
import Testing
import TranslationCore
import TranslationTesting
@testable import NeuralEngine

/// The neural engine keeps the engine contract, run on a package of the tiny random model.
@Suite("Engine conformance: the neural engine")
struct NeuralEngineConformanceTests {
    static let pair = LanguagePair(source: "en", target: "de")

    @Test func keepsTheEngineContract() async throws {
        var configuration = NeuralEngine.Configuration()
        configuration.defaults.beamSize = 2   // the tiny model allows at most half its 6 tokens
        configuration.idleUnloadSeconds = nil
        let engine = NeuralEngine(store: ModelStore(root: try tinyModelsFolder()), configuration: configuration)
        defer { Task { await engine.shutdown() } }
        var conformance = EngineConformance(engine: engine, pair: Self.pair)
        // The tiny model's vocabulary: its pieces reach the model as themselves, not as <unk>.
        conformance.sentences = ["a b c", "b a", "a", "c b b a", "b"]
        // The tiny model translates 2,000 sentences within the 50 ms before the cancel: give it
        // enough that the cancel comes while it works.
        conformance.cancellationCopies = 10_000
        try await conformance.all()
    }
}
