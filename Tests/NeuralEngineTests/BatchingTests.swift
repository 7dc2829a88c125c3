import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import NeuralEngine

/// The batching pool against the same model translating each sentence alone.
@Suite struct BatchingTests {
    /// Random token sentences of 0…11 tokens over the tiny model's vocabulary.
    private func sentences(_ count: Int, seed: UInt64) -> [[String]] {
        var state = seed
        func next() -> Int { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return Int(state >> 33) }
        return (0..<count).map { _ in (0..<(next() % 12)).map { _ in ["▁a", "▁b", "c", "x"][next() % 4] } }
    }

    @Test(arguments: [1, 3]) func concurrentCallersGetExactlyTheirOwnTranslations(beam: Int) async throws {
        let translator = try Translator(modelDirectory: try writeModelDirectory(tinyModel()))
        let options = DecodingOptions(beamSize: beam, maxDecodingLength: 10, noRepeatNgramSize: 3)
        var settings = BatchingPool.Settings()
        settings.maxWait = 0.05   // while one worker is busy, the other waits for callers to meet
        settings.maxBatchTokens = 64
        settings.maxBatchSentences = 8
        settings.maxQueuedSentences = 100_000   // the long request below waits whole
        let pool = BatchingPool(workers: 2, threads: 1, settings: settings)
        defer { pool.shutdown() }
        let requests = (0..<24).map { sentences(1 + $0 % 5, seed: UInt64($0)) }
        // Unbatched: each sentence alone.
        let alone = try requests.map { try $0.map { try translator.translate([$0], options: options)[0].tokens } }
        // A long request under other options (so none of the short ones can join its batches)
        // keeps the workers busy until every short request is queued: they then meet in the queue
        // whatever the machine's speed (arriving one by one at idle workers, they need not).
        let longOptions = DecodingOptions(beamSize: 1, maxDecodingLength: 4)
        let long = sentences(20_000, seed: 99)
        let first = Task { try await pool.translate(long, translator: translator, options: longOptions) }
        // A minute, not the default 15 s: under `swift test --parallel` on two cores the other
        // suites can hold both cooperative threads for long, and the long request's task must
        // get one to enqueue its sentences (failed so once in `make test`, 2026-12-07).
        #expect(try await eventually(within: .seconds(60)) { pool.batchCounts.batches > 0 })
        let batched = try await withThrowingTaskGroup(of: (Int, [[String]]).self) { group in
            for (i, request) in requests.enumerated() {
                group.addTask { (i, try await pool.translate(request, translator: translator, options: options)) }
            }
            #expect(try await eventually(within: .seconds(60)) { pool.waitingRequests == requests.count + 1 },
                    "the long request ended before the short ones were queued")
            first.cancel()   // its untaken sentences leave the queue; the short ones are next
            var out = Array(repeating: [[String]](), count: requests.count)
            for try await (i, result) in group { out[i] = result }
            return out
        }
        let withdrawn = await #expect(throws: TranslationError.self) { try await first.value }
        #expect(withdrawn?.kind == .cancelled)
        #expect(batched == alone)
        // The callers really met: some batches held several requests' sentences.
        #expect(pool.batchCounts.shared > 0)
    }

    @Test func batchingOffTranslatesEachRequestAlone() async throws {
        let translator = try Translator(modelDirectory: try writeModelDirectory(tinyModel()))
        let options = DecodingOptions(beamSize: 2, maxDecodingLength: 10)
        var settings = BatchingPool.Settings()
        settings.batching = false
        let pool = BatchingPool(workers: 1, threads: 1, settings: settings)
        defer { pool.shutdown() }
        let request = sentences(40, seed: 7)
        let result = try await pool.translate(request, translator: translator, options: options)
        #expect(result == (try translator.translate(request, options: options).map(\.tokens)))
        #expect(pool.batchCounts == .init(batches: 1, shared: 0))
    }

    @Test func aFullQueueRefusesWithOverloaded() async throws {
        let translator = try Translator(modelDirectory: try writeModelDirectory(tinyModel()))
        let options = DecodingOptions(beamSize: 1, maxDecodingLength: 4)
        var settings = BatchingPool.Settings()
        settings.maxQueuedSentences = 2
        let pool = BatchingPool(workers: 1, threads: 1, settings: settings)
        defer { pool.shutdown() }
        // An idle pool takes a request of any size; its sentences then wait 32 to a batch.
        let long = sentences(20_000, seed: 11)
        let first = Task { try await pool.translate(long, translator: translator, options: options) }
        while pool.batchCounts.batches == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let refused = await #expect(throws: TranslationError.self) {
            try await pool.translate([["▁b"], ["c"]], translator: translator, options: options)
        }
        #expect(refused?.kind == .overloaded)
        #expect(refused?.message.contains("busy") == true)
        // The queued request is unaffected, and an idle pool takes a request of any size.
        #expect(try await first.value.count == long.count)
        #expect(try await pool.translate(sentences(5, seed: 3), translator: translator, options: options).count == 5)
    }

    @Test func aCancelledCallerIsWithdrawn() async throws {
        let translator = try Translator(modelDirectory: try writeModelDirectory(tinyModel()))
        var settings = BatchingPool.Settings()
        settings.maxQueuedSentences = 100_000
        let pool = BatchingPool(workers: 1, threads: 1, settings: settings)
        defer { pool.shutdown() }
        let options = DecodingOptions(beamSize: 1, maxDecodingLength: 4)
        // A long request ahead keeps the worker busy, so the next one waits in the queue.
        let ahead = Task { try await pool.translate(sentences(20_000, seed: 5), translator: translator, options: options) }
        while pool.batchCounts.batches == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let task = Task { try await pool.translate([["▁a"]], translator: translator, options: options) }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        let error = await #expect(throws: TranslationError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(try await ahead.value.count == 20_000)
    }
}
