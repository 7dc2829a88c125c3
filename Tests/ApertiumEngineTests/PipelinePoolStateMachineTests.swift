import Testing
import TranslationCore
import TranslationTesting
@testable import ApertiumEngine

/// Instants moved by hand: the state machine never reads a clock.
typealias FakeInstant = ManualClock.Instant

@Suite struct PipelinePoolStateMachineTests {
    typealias Machine = PipelinePoolStateMachine<FakeInstant>
    static let crash = TranslationError(.engineFailure, "stage died.")

    func machine(min: Int = 1, max: Int = 2, timeout: Duration = .seconds(5)) -> Machine {
        Machine(limits: .init(minPipelines: min, maxPipelines: max, maxMemoryGrowth: 64 << 20, requestTimeout: timeout))
    }

    /// A pool of exactly one pipeline, started and idle (pipeline 0).
    func oneWarmPipeline() -> Machine {
        var m = machine(min: 1, max: 1)
        _ = m.start(now: at(0))
        _ = m.pipelineStarted(0, now: at(0))
        return m
    }

    func at(_ seconds: Int) -> FakeInstant { FakeInstant(offset: .seconds(seconds)) }

    @Test func startsTheMinimumAndRunsOnAnIdlePipeline() {
        var m = machine(min: 1)
        #expect(m.start(now: at(0)) == [.startPipeline(0)])
        #expect(m.request(7, now: at(0)) == []) // pipeline 0 is starting and will take it
        #expect(m.request(8, now: at(0)) == [.startPipeline(1)]) // a second waiter needs a second
        #expect(m.pipelineStarted(0, now: at(1)) == [.run(7, on: 0)])
        #expect(m.pipelineStarted(1, now: at(1)) == [.run(8, on: 1)])
        #expect(m.requestSucceeded(7, on: 0, now: at(2)) == [.succeed(7)])
        #expect(m.requestSucceeded(8, on: 1, now: at(2)) == [.succeed(8)])
        #expect(m.counts.idle == 2)
    }

    @Test func onePipelineServesOneRequestAtATimeAndWaitersQueue() {
        var m = oneWarmPipeline()
        #expect(m.request(1, now: at(0)) == [.run(1, on: 0)])
        #expect(m.request(2, now: at(0)) == []) // max reached: waits
        #expect(m.request(3, now: at(0)) == [])
        #expect(m.counts.waiting == 2)
        #expect(m.requestSucceeded(1, on: 0, now: at(1)) == [.succeed(1), .run(2, on: 0)])
        #expect(m.requestSucceeded(2, on: 0, now: at(1)) == [.succeed(2), .run(3, on: 0)])
        #expect(m.requestSucceeded(3, on: 0, now: at(1)) == [.succeed(3)])
    }

    @Test func cancelWithdrawsAWaitingRequestAndStopsARunningOnesPipeline() {
        var m = oneWarmPipeline()
        #expect(m.request(1, now: at(0)) == [.run(1, on: 0)])
        #expect(m.request(2, now: at(0)) == [])
        let cancelled = TranslationError(.cancelled, "The request was cancelled.")
        #expect(m.cancel(2, now: at(1)) == [.fail(2, cancelled)])
        #expect(m.counts.waiting == 0)
        #expect(m.cancel(1, now: at(1)) == [.stopPipeline(0), .fail(1, cancelled), .startPipeline(1)])
        // The stopped pipeline's late answer is ignored; a second cancel finds nothing.
        #expect(m.requestSucceeded(1, on: 0, now: at(2)) == [])
        #expect(m.cancel(1, now: at(2)) == [])
    }

    @Test func aSmallRequestWhoseCallerLeftFinishesForNobodyAndKeepsItsPipeline() {
        var m = oneWarmPipeline()
        #expect(m.request(1, now: at(0)) == [.run(1, on: 0)])
        #expect(m.request(2, now: at(0)) == [])
        let cancelled = TranslationError(.cancelled, "The request was cancelled.")
        // The caller hears at once; the pipeline is neither stopped nor replaced.
        #expect(m.cancel(1, small: true, now: at(1)) == [.fail(1, cancelled)])
        #expect(m.counts.pipelines == 1 && m.counts.idle == 0)
        // Its answer is dropped, and the same warm pipeline takes the next request.
        #expect(m.requestSucceeded(1, on: 0, now: at(1)) == [.run(2, on: 0)])
        #expect(m.cancel(1, small: true, now: at(2)) == [])
        #expect(m.requestSucceeded(2, on: 0, now: at(2)) == [.succeed(2)])
        #expect(m.counts.idle == 1)
    }

    @Test func anAbandonedRequestThatBreaksOrHangsStopsItsPipelineAndIsNeverRetried() {
        var m = oneWarmPipeline()
        _ = m.request(1, now: at(0))
        _ = m.cancel(1, small: true, now: at(0))
        let broke = TranslationError(.engineFailure, "a stage died")
        // Stopped and replaced (the pool keeps its minimum), and request 1 is not run again.
        #expect(m.requestFailed(1, on: 0, error: broke, now: at(1)) == [.stopPipeline(0), .startPipeline(1)])
        _ = m.pipelineStarted(1, now: at(1))
        _ = m.request(2, now: at(1))
        _ = m.cancel(2, small: true, now: at(1))
        // A hang: past the deadline the pipeline is stopped, with no caller to fail.
        #expect(m.tick(now: at(1000)) == [.stopPipeline(1), .startPipeline(2)])
        #expect(m.isIdle)
    }

    @Test func neverMoreThanMaxPipelines() {
        var m = machine(min: 0, max: 3)
        var starts = 0
        for r in 0..<10 {
            starts += m.request(r, now: at(0)).filter { if case .startPipeline = $0 { true } else { false } }.count
        }
        #expect(starts == 3)
        #expect(m.counts.pipelines == 3)
    }

    @Test func retiresAPipelineThatOutgrewItsMemoryAndOnlyThat() {
        var m = machine(min: 1, max: 1)
        _ = m.start(now: at(0))
        _ = m.pipelineStarted(0, now: at(0))
        // However many requests it serves, a pipeline that does not grow is kept.
        for r in 1...3000 {
            _ = m.request(r, now: at(0))
            #expect(m.requestSucceeded(r, on: 0, now: at(0)) == [.succeed(r)])
        }
        _ = m.request(3001, now: at(0))
        // Grown past its bound: retired once answered, and a fresh one keeps the minimum.
        #expect(m.requestSucceeded(3001, on: 0, outgrown: true, now: at(0)) == [.succeed(3001), .stopPipeline(0), .startPipeline(1)])
    }

    @Test func crashRetiresThePipelineAndRetriesOnceOnAFreshOne() {
        var m = oneWarmPipeline()
        _ = m.request(1, now: at(0))
        _ = m.request(2, now: at(0))
        // Request 1's pipeline crashes: stopped, a fresh one started, request 1 goes first.
        #expect(m.requestFailed(1, on: 0, error: Self.crash, now: at(1)) == [.stopPipeline(0), .startPipeline(1)])
        #expect(m.pipelineStarted(1, now: at(1)) == [.run(1, on: 1)])
        #expect(m.requestSucceeded(1, on: 1, now: at(2)) == [.succeed(1), .run(2, on: 1)])
    }

    @Test func secondCrashFailsTheCallerWithAClearError() {
        var m = oneWarmPipeline()
        _ = m.request(1, now: at(0))
        _ = m.requestFailed(1, on: 0, error: Self.crash, now: at(1))
        _ = m.pipelineStarted(1, now: at(1))
        let actions = m.requestFailed(1, on: 1, error: Self.crash, now: at(2))
        #expect(actions.first == .stopPipeline(1))
        guard case .fail(1, let error)? = actions.dropFirst().first else {
            Issue.record("expected a failure, got \(actions)")
            return
        }
        #expect(error.kind == .engineFailure)
        #expect(error.message.contains("retry"))
    }

    @Test func hangPastTheDeadlineIsRetiredAndRetried() {
        var m = machine(min: 1, max: 1, timeout: .seconds(5))
        _ = m.start(now: at(0))
        _ = m.pipelineStarted(0, now: at(0))
        _ = m.request(1, now: at(10))
        #expect(m.nextDeadline == at(15))
        #expect(m.tick(now: at(14)) == [])
        #expect(m.tick(now: at(15)) == [.stopPipeline(0), .startPipeline(1)])
        _ = m.pipelineStarted(1, now: at(16))
        #expect(m.nextDeadline == at(21))
        // The hung pipeline's late answer is ignored: the request lives on pipeline 1 now.
        #expect(m.requestSucceeded(1, on: 0, now: at(17)) == [])
        let actions = m.tick(now: at(21))
        #expect(actions.first == .stopPipeline(1))
        guard case .fail(1, let error)? = actions.dropFirst().first else {
            Issue.record("expected a timeout, got \(actions)")
            return
        }
        #expect(error.kind == .timeout)
    }

    @Test func progressMovesTheDeadline() {
        var m = machine(min: 1, max: 1, timeout: .seconds(5))
        _ = m.start(now: at(0))
        _ = m.pipelineStarted(0, now: at(0))
        _ = m.request(1, now: at(0))
        m.requestProgressed(1, on: 0, now: at(4))
        #expect(m.tick(now: at(6)) == [])
        #expect(m.nextDeadline == at(9))
    }

    @Test func startFailureWithNothingAliveFailsWaitersWithoutARestartLoop() {
        var m = machine(min: 1, max: 2)
        #expect(m.start(now: at(0)) == [.startPipeline(0)])
        #expect(m.request(1, now: at(0)) == [])
        #expect(m.pipelineFailedToStart(0, error: Self.crash, now: at(1)) == [.fail(1, Self.crash)])
        #expect(m.counts.pipelines == 0)
        // No restart on its own; a new caller tries again.
        #expect(m.tick(now: at(5)) == [])
        #expect(m.request(2, now: at(6)) == [.startPipeline(1)])
    }

    @Test func shutdownFailsEveryoneAndStopsEverything() {
        var m = oneWarmPipeline()
        _ = m.request(1, now: at(0))
        _ = m.request(2, now: at(0))
        let actions = m.shutdown()
        #expect(actions.count == 3)
        #expect(actions.last == .stopPipeline(0))
        #expect(actions.contains { if case .fail(1, let e) = $0 { e.kind == .cancelled } else { false } })
        #expect(actions.contains { if case .fail(2, let e) = $0 { e.kind == .cancelled } else { false } })
        #expect(m.request(3, now: at(1)).count == 1)
        #expect(m.pipelineStarted(5, now: at(1)) == [.stopPipeline(5)])
    }
}
