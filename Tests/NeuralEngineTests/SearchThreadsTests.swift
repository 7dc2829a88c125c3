import Foundation
import Testing
import TranslationCore
@testable import NeuralEngine

/// Search splits its per-sentence scoring (log-softmax, beam scores, top-k) over the request's
/// threads: the answer must not depend on how many.
@Suite struct SearchThreadsTests {
    /// `count` random token sentences of 0…9 tokens over the tiny model's vocabulary.
    private func sentences(_ count: Int, seed: UInt64) -> [[String]] {
        var state = seed
        func next() -> Int { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return Int(state >> 33) }
        return (0..<count).map { _ in (0..<(next() % 10)).map { _ in ["▁a", "▁b", "c", "x"][next() % 4] } }
    }

    @Test(arguments: [1, 2, 3]) func everyThreadCountGivesTheSameTokensAndScores(beam: Int) throws {
        let translator = try Translator(modelDirectory: try writeModelDirectory(tinyModel()))
        let options = DecodingOptions(beamSize: beam, lengthPenalty: 1, maxDecodingLength: 12,
                                      noRepeatNgramSize: 2, returnScores: true)
        let batch = sentences(13, seed: 7)
        let one = try translator.translate(batch, options: options, threads: 1)
        for threads in [2, 3, 16] {
            let many = try translator.translate(batch, options: options, threads: threads)
            #expect(many.map(\.tokens) == one.map(\.tokens), "threads \(threads)")
            #expect(many.map(\.score.bitPattern) == one.map(\.score.bitPattern), "threads \(threads)")
        }
    }
}
