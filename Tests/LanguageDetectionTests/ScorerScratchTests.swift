import Dispatch
import Synchronization
import Testing
import TranslationCore
@testable import LanguageDetection

/// The scorer's arrays are reused per thread (``ScorerScratch``): reuse must never show, neither
/// in a later detection nor in scores a caller still holds, nor across threads.
@Suite struct ScorerScratchTests {
    static let texts = ["hello", "Bonjour tout le monde", "Dzień dobry, jak się masz?", "Привет, как дела?",
                        "schließlich", "xqzw", "東京は日本の首都です", "La casa é grande e bonita", "ok"]

    /// Scores with arrays of its own, never the thread's scratch.
    static func fresh(_ model: DetectorModel, _ text: String) -> (scores: [Float], words: Int) {
        let candidates = model.candidates(for: ScriptCensus(text))
        var scorer = WordScorer(model: model, candidates: candidates)
        var words = 0
        TextFeatures.forEachWord(in: text, letterLimit: DetectorModel.letterLimit) { word in
            scorer.add(word)
            words += 1
        }
        return (scorer.scores, words)
    }

    /// Scores held from an earlier call keep their values while later calls on the same thread
    /// reuse the scratch, and every call gives what fresh arrays give.
    @Test func heldScoresSurviveLaterDetections() {
        let model = DetectorModel.embedded
        var held: [(text: String, scores: [Float])] = []
        for text in Self.texts {
            let candidates = model.candidates(for: ScriptCensus(text))
            let (scores, _) = model.logLikelihoods(of: text, candidates: candidates, letterLimit: DetectorModel.letterLimit, prune: false)
            held.append((text, scores))
        }
        for (text, scores) in held {
            #expect(scores == Self.fresh(model, text).scores, "\(text)")
        }
    }

    /// A scorer made while another holds the thread's arrays gets arrays of its own: the two
    /// interleaved give what each gives alone.
    @Test func interleavedScorersDoNotShareArrays() {
        let model = DetectorModel.embedded
        let latin = model.languagesByScript[.latin]!
        var first = WordScorer(model: model, candidates: latin, arrays: ScorerScratch.take())
        var second = WordScorer(model: model, candidates: latin, arrays: ScorerScratch.take())
        for word in ["hello", "world", "schließlich"] {
            first.add(Array(word.unicodeScalars))
            second.add(Array(word.reversed().map { $0.unicodeScalars.first! }))
        }
        var alone = WordScorer(model: model, candidates: latin)
        for word in ["hello", "world", "schließlich"] { alone.add(Array(word.unicodeScalars)) }
        #expect(first.scores == alone.scores)
        #expect(first.scores != second.scores)
        ScorerScratch.give(first.takeArrays())
        ScorerScratch.give(second.takeArrays())
    }

    /// Detections on many threads at once give the answers of one thread, text by text.
    @Test func threadsGiveTheSameAnswers() {
        let detector = ModelDetector()
        let serial = Self.texts.map { detector.detection(for: $0, hint: nil) }
        let rounds = 64
        let answers = Mutex([[Detection]](repeating: [], count: rounds))
        DispatchQueue.concurrentPerform(iterations: rounds) { round in
            // Each round starts at another text, so the threads' scratch holds other words.
            let order = Self.texts.indices.map { ($0 + round) % Self.texts.count }
            var found = [Detection?](repeating: nil, count: Self.texts.count)
            for index in order { found[index] = detector.detection(for: Self.texts[index], hint: nil) }
            answers.withLock { $0[round] = found.map { $0! } }
        }
        let all = answers.withLock { $0 }
        for round in 0..<rounds { #expect(all[round] == serial, "round \(round)") }
    }
}
