import Testing
@testable import LanguageDetection

/// The trainer's learner of per-language logit offsets: exact per coordinate, never worse than
/// no offsets, bounded, and silent where nothing is gained.
@Suite struct LogitOffsetsTests {
    typealias Sample = LogitOffsets.Sample

    /// The weight of the samples answered right with `offsets` added to their logits.
    static func objective(_ samples: [Sample], _ offsets: [Float]) -> Double {
        samples.reduce(0) { total, sample in
            let values = zip(sample.candidates, sample.logits).map { ($0, $1 + offsets[$0]) }
            return total + (values.max { $0.1 < $1.1 }!.0 == sample.truth ? sample.weight : 0)
        }
    }

    /// Language 0 trails language 1 by 0.3 on its own texts, and language 1 leads by 1 on its
    /// own: an offset between 0.3 and 1 for language 0 (or its mirror for 1) gets every text right.
    @Test func anOffsetMovesTheBoundaryBetweenTwoLanguages() {
        let samples = (0..<10).map { _ in Sample(candidates: [0, 1], logits: [0, 0.3], truth: 0, weight: 1) }
            + (0..<10).map { _ in Sample(candidates: [0, 1], logits: [-1, 0], truth: 1, weight: 1) }
        #expect(Self.objective(samples, [0, 0]) == 10)
        let offsets = LogitOffsets().learn(samples, languages: 2)
        #expect(Self.objective(samples, offsets) == 20)
        #expect(offsets[0] - offsets[1] > 0.3 && offsets[0] - offsets[1] < 1)
    }

    /// Weights decide: when language 0's texts weigh less than language 1's, the boundary stays.
    @Test func weightsDecideWhatIsTradedAway() {
        let samples = [Sample(candidates: [0, 1], logits: [0, 0.5], truth: 0, weight: 1),
                       Sample(candidates: [0, 1], logits: [0, 0.4], truth: 1, weight: 3)]
        let offsets = LogitOffsets().learn(samples, languages: 2)
        #expect(Self.objective(samples, offsets) == 3)
    }

    @Test func nothingGainedMeansNoOffsets() {
        let samples = [Sample(candidates: [0, 1, 2], logits: [1, 0, 0], truth: 0, weight: 1),
                       Sample(candidates: [0, 1, 2], logits: [0, 1, 0], truth: 1, weight: 1),
                       Sample(candidates: [0, 1, 2], logits: [0, 0, 1], truth: 2, weight: 1)]
        #expect(LogitOffsets().learn(samples, languages: 3) == [0, 0, 0])
    }

    /// A text its language trails by far more than the bound is not won back.
    @Test func offsetsStayWithinTheBound() {
        let samples = [Sample(candidates: [0, 1], logits: [0, 10], truth: 0, weight: 1)]
        let offsets = LogitOffsets().learn(samples, languages: 2)
        #expect(offsets.allSatisfy { abs($0) <= LogitOffsets().bound })
        #expect(Self.objective(samples, offsets) == 0)
    }

    /// On random texts of four languages: the learned offsets beat none; the first step finds
    /// language 0's best offset exactly (brute force on a fine grid with the others at 0 cannot
    /// beat it); and once the passes have settled, no change of one language's offset gains.
    @Test func coordinateAscentIsExactPerLanguage() {
        var state: UInt64 = 0x9E3779B97F4A7C15
        func uniform() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        let samples = (0..<400).map { i -> Sample in
            let truth = i % 4
            let logits = (0..<4).map { c in uniform() * 2 + (c == truth ? 0.6 : 0) + (c == 3 ? 0.5 : 0) }
            return Sample(candidates: [0, 1, 2, 3], logits: logits, truth: truth, weight: 1 + Double(i % 3))
        }
        let grid = (-300...300).map { Float($0) / 100 }
        var learner = LogitOffsets()
        learner.minimumGain = 0
        learner.passes = 1
        let firstPass = learner.learn(samples, languages: 4)
        let bestAlone = grid.map { Self.objective(samples, [$0, 0, 0, 0]) }.max()!
        // At least: the exact sweep also finds intervals narrower than the grid step.
        #expect(Self.objective(samples, [firstPass[0], 0, 0, 0]) >= bestAlone)
        learner.passes = 20
        let offsets = learner.learn(samples, languages: 4)
        let learned = Self.objective(samples, offsets)
        #expect(learned > Self.objective(samples, [0, 0, 0, 0]))
        for language in 0..<4 {
            for value in grid {
                var changed = offsets
                changed[language] = value
                #expect(learned >= Self.objective(samples, changed), "language \(language), offset \(value)")
            }
        }
    }
}
