import Foundation
import Testing
import TranslationKit

/// `translate(batch:)` yields each result as soon as it is ready, and stops the work left when
/// its consumer leaves.
@Suite struct BatchStreamingTests {
    /// One text waits in the engine until every other result has reached the consumer. If
    /// results were held back until the batch finished, the others could not arrive first; the
    /// gate's fallback would fire and `timedOut` would fail the test.
    @Test(arguments: BackendKind.allCases)
    func otherResultsArriveBeforeTheSlowOne(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let texts = ["one", "two SLOW", "three", "four", "five"]
        let requests = texts.enumerated().map { TranslationSession.Request(sourceText: $1, clientIdentifier: String($0)) }
        var arrived: [String] = []
        for try await response in harness.session("en", "es").translate(batch: requests) {
            arrived.append(response.clientIdentifier!)
            if arrived.count == texts.count - 1 { harness.probe.slowGate.open() }
        }
        #expect(arrived.count == texts.count)
        #expect(arrived.last == "1")
        #expect(Set(arrived) == Set((0..<texts.count).map(String.init)))
        #expect(!harness.probe.slowGate.timedOut)
    }

    /// The consumer takes two results and leaves; every other text waits in the engine. Then the
    /// waiting texts are let through one at a time (a server learns that its client left only
    /// when it writes to the closed connection). Work that had not started must never start:
    /// the engine sees the two, the texts in flight (the concurrency limit, 4) and the few a
    /// server finishes before its writes fail, far fewer than the 200 of the batch.
    @Test(arguments: BackendKind.allCases)
    func leavingTheLoopStopsTheRemainingWork(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind, maxConcurrent: 4)
        let total = 200
        let requests = (0..<total).map { TranslationSession.Request(sourceText: $0 < 2 ? "t\($0)" : "t\($0) HOLD") }
        var received = 0
        for try await _ in harness.session("en", "es").translate(batch: requests) {
            received += 1
            if received == 2 { break }
        }
        var released = 0
        for _ in 0..<total where released < total {
            try await Task.sleep(for: .milliseconds(25))
            if harness.probe.holdGate.releaseOne() { released += 1 } else if harness.probe.holdGate.waiting == 0 {
                // Nothing waits: either every started text was released, or the server stopped.
                try await Task.sleep(for: .milliseconds(100))
                if harness.probe.holdGate.waiting == 0 { break }
            }
        }
        let started = await settle { harness.probe.started }
        print("cancellation (\(kind)): the engine started \(started) of \(total) texts; \(released) released one by one")
        #expect(received == 2)
        #expect(started < 2 + 4 + 16, "the engine started \(started) of \(total) texts after the consumer left")
    }

    @Test(arguments: BackendKind.allCases)
    func aFailingTextEndsTheSequenceWithItsError(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let requests = ["ok", "FAIL"].map { TranslationSession.Request(sourceText: $0) }
        await #expect(throws: TranslationError.internalError) {
            for try await _ in harness.session("en", "es").translate(batch: requests) {}
        }
    }
}

/// Polls `value` until it stays the same for a while (bounded), and returns it.
func settle(_ value: @Sendable () -> Int) async -> Int {
    var last = value()
    var stable = 0
    for _ in 0..<100 where stable < 5 {
        try? await Task.sleep(for: .milliseconds(60))
        let now = value()
        stable = now == last ? stable + 1 : 0
        last = now
    }
    return last
}
