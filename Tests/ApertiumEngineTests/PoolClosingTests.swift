import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// Closing pools to bound memory: the state machine's `close`, the warm set's choices, and the
/// engine over real pairs (a closed pool answers its next request as before).
@Suite struct PoolClosingTests {
    typealias Machine = PipelinePoolStateMachine<FakeInstant>

    func machine(min: Int = 1, max: Int = 2) -> Machine {
        Machine(limits: .init(minPipelines: min, maxPipelines: max, maxMemoryGrowth: 64 << 20, requestTimeout: .seconds(5)))
    }

    func at(_ seconds: Int) -> FakeInstant { FakeInstant(offset: .seconds(seconds)) }

    @Test func closingStopsIdlePipelinesAndTheNextRequestStartsOneAgain() {
        var m = machine(min: 1)
        _ = m.start(now: at(0))
        _ = m.pipelineStarted(0, now: at(0))
        #expect(m.close(now: at(1)) == [.stopPipeline(0)])
        #expect(m.counts.pipelines == 0)
        // No restart to keep the minimum while closed.
        #expect(m.tick(now: at(2)) == [])
        #expect(m.request(1, now: at(3)) == [.startPipeline(1)])
        #expect(m.pipelineStarted(1, now: at(4)) == [.run(1, on: 1)])
        // Open again: the pipeline stays for the next caller.
        #expect(m.requestSucceeded(1, on: 1, now: at(5)) == [.succeed(1)])
        #expect(m.counts.idle == 1)
    }

    @Test func closingWaitsForTheRunningRequestAndTheQueueNeverFailsAnyone() {
        var m = machine(min: 1, max: 1)
        _ = m.start(now: at(0))
        _ = m.pipelineStarted(0, now: at(0))
        #expect(m.request(1, now: at(0)) == [.run(1, on: 0)])
        #expect(m.close(now: at(1)) == [])  // busy: not stopped under its request
        #expect(m.requestSucceeded(1, on: 0, now: at(2)) == [.succeed(1), .stopPipeline(0)])
        // Closed while starting: the pipeline stops as it reports in.
        var n = machine(min: 1)
        #expect(n.start(now: at(0)) == [.startPipeline(0)])
        #expect(n.close(now: at(0)) == [])
        #expect(n.pipelineStarted(0, now: at(1)) == [.stopPipeline(0)])
    }

    @Test func closeIfIdleLooksAtTheLastRequestAndItsAnswer() {
        var m = machine(min: 1)
        _ = m.start(now: at(0))
        _ = m.pipelineStarted(0, now: at(0))
        _ = m.request(1, now: at(10))
        #expect(m.closeIfIdle(since: at(20), now: at(30)) == nil)  // running
        _ = m.requestSucceeded(1, on: 0, now: at(25))
        #expect(m.closeIfIdle(since: at(20), now: at(30)) == nil)  // answered after the cutoff
        #expect(m.closeIfIdle(since: at(25), now: at(40)) == [.stopPipeline(0)])
        #expect(m.isClosed)
    }

    @Test func theWarmSetClosesTheLeastRecentlyUsedPastItsLimitButNeverAPinnedOne() {
        var warm = WarmSet<String, FakeInstant>(limit: 2, pinned: ["eng-spa"])
        #expect(warm.use("eng-spa", at: at(0)) == [])
        #expect(warm.use("a", at: at(1)) == [])
        #expect(warm.use("b", at: at(2)) == [])
        #expect(warm.use("a", at: at(3)) == [])
        #expect(warm.use("c", at: at(4)) == ["b"])  // b was used before a's second use
        #expect(warm.use("b", at: at(5)) == ["a"])
        #expect(Set(warm.lastUse.keys) == ["b", "c"])
        #expect(warm.unused(since: at(4)) == ["c"])
        warm.pin("c")
        #expect(warm.unused(since: at(10)) == ["b"])
        var unlimited = WarmSet<String, FakeInstant>(limit: nil, pinned: [])
        for (index, key) in ["a", "b", "c", "d"].enumerated() { #expect(unlimited.use(key, at: at(index)) == []) }
    }

    @Test(Requirement.apertium("eng-spa", "spa-eng", packages: ["apertium-eng-spa"])) func aClosedPairAnswersAsBeforeAndTheWarmSetStaysWithinItsLimit() async throws {
        var configuration = ApertiumEngine.Configuration(maxWarmPools: 1, idleTimeout: .seconds(2))
        configuration.probeCache = nil
        try await EngineIntegrationTests.withEngine(configuration) { engine in
            let (engSpa, spaEng) = (LanguagePair(source: "en", target: "es"), LanguagePair(source: "es", target: "en"))
            try #require(await engine.pairs().contains(spaEng), "Apertium spa-eng is not installed (make deps-test)")
            let options = TranslationOptions()
            let first = try await engine.translate(["The house is red."], pair: engSpa, options: options)
            #expect(try await engine.translate(["La casa es roja."], pair: spaEng, options: options) == ["The house is red."])
            // eng-spa was the least recently used of two with room for one: its pipeline stops.
            #expect(try await eventually { await engine.runningPipelines()["eng-spa", default: 0] == 0 })
            #expect(await engine.runningPipelines()["spa-eng", default: 0] >= 1)
            // Its next request starts it again and gets the same answer.
            #expect(try await engine.translate(["The house is red."], pair: engSpa, options: options) == first)
            // Unused for the idle timeout: nothing stays warm.
            #expect(try await eventually { await engine.runningPipelines().values.allSatisfy { $0 == 0 } })
            #expect(try await engine.translate(["La casa es roja."], pair: spaEng, options: options) == ["The house is red."])
        }
    }
}
