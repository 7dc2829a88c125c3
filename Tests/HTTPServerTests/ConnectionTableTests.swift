import Testing
import TranslationTesting
@testable import HTTPServer

/// Instants moved by hand: the table never reads a clock.
typealias TestInstant = ManualClock.Instant

@Suite("Connection table: limits, deadlines, drain")
struct ConnectionTableTests {
    typealias Table = ConnectionTable<TestInstant>

    private func table(max: Int = 2) -> Table {
        Table(limits: .init(maxConnections: max, requestLineTimeout: .seconds(30), headTimeout: .seconds(10),
                            bodyTimeout: .seconds(60)))
    }

    private func at(_ milliseconds: Int) -> TestInstant { TestInstant(offset: .milliseconds(milliseconds)) }

    @Test func trickledPhasesExpireByTheirOwnDeadlinesNotByIdleness() {
        var t = table(max: 10)
        #expect(t.opened(1, now: at(0)) == .admit)
        #expect(t.opened(2, now: at(0)) == .admit)
        #expect(t.opened(3, now: at(0)) == .admit)
        t.requestLine(2, now: at(1_000))
        t.requestLine(3, now: at(1_000))
        t.headReceived(3, now: at(2_000))
        // Events a trickling client causes (more bytes) do not move any deadline.
        #expect(t.expired(now: at(10_999)) == [])
        #expect(t.expired(now: at(11_000)) == [2])           // head: 10 s after its request line
        #expect(t.expired(now: at(30_000)) == [1])           // request line: 30 s after accept
        #expect(t.expired(now: at(62_000)) == [3])           // body: 60 s after the head
        #expect(t.count == 0)
    }

    @Test func handlerTimeHasNoDeadlineAndSuspendedConnectionsAreWatched() {
        var t = table(max: 10)
        _ = t.opened(1, now: at(0))
        t.requestLine(1, now: at(0))
        t.headReceived(1, now: at(0))
        t.handling(1)
        #expect(t.suspended == [1])
        #expect(t.expired(now: at(3_600_000)) == [])
        t.responding(1)
        #expect(t.suspended == [])
        t.streamWaiting(1)
        #expect(t.isSuspended(1))
        t.responding(1)
        #expect(t.requestCompleted(1, now: at(3_600_000)) == false)
        #expect(t.phase(of: 1) == .awaitingRequest(since: at(3_600_000)))
    }

    @Test func atTheLimitANewcomerEvictsTheLongestIdleKeepAliveThenAStalledHead() {
        var t = table(max: 3)
        _ = t.opened(1, now: at(0))
        _ = t.opened(2, now: at(0))
        _ = t.opened(3, now: at(0))
        // 1 is busy in its handler, 2 stalls in its head, 3 served a request and idles.
        t.requestLine(1, now: at(0)); t.headReceived(1, now: at(0)); t.handling(1)
        t.requestLine(2, now: at(100))
        t.requestLine(3, now: at(0)); t.headReceived(3, now: at(0)); t.responding(3)
        _ = t.requestCompleted(3, now: at(200))
        #expect(t.opened(4, now: at(300)) == .admitEvicting(3))
        // 2 has waited for its head for 0.5 s only: a client still sending it may be on a slow link.
        #expect(t.opened(5, now: at(500)) == .refuse)
        // A second later it counts as stalled.
        #expect(t.opened(5, now: at(1_100)) == .admitEvicting(2))
        #expect(t.opened(6, now: at(5_000)) == .admitEvicting(4))  // 4 never sent a byte
        #expect(t.count == 3)
    }

    @Test func aTricklerThatJustFinishedItsRequestLineIsStillStalled() {
        // Slow clients trickle in lockstep: all finish their request lines within one moment.
        // Were a stall counted from the head phase's start, every one would look fresh for a
        // second then, and a normal client arriving in that second would be refused.
        var t = table(max: 2)
        _ = t.opened(1, now: at(0))
        _ = t.opened(2, now: at(0))
        t.requestLine(1, now: at(4_000))
        t.requestLine(2, now: at(4_000))
        #expect(t.opened(3, now: at(4_100)) == .admitEvicting(1))
        // Its head deadline still runs from its request line.
        #expect(t.expired(now: at(13_999)) == [])
        #expect(t.expired(now: at(14_000)) == [2])
    }

    @Test func drainClosesIdleKeepAliveAndEveryConnectionAfterItsRequest() {
        var t = table(max: 10)
        _ = t.opened(1, now: at(0))
        _ = t.opened(2, now: at(0))
        _ = t.opened(3, now: at(0))
        t.requestLine(1, now: at(0)); t.headReceived(1, now: at(0)); t.handling(1)
        t.requestLine(2, now: at(0)); t.headReceived(2, now: at(0)); t.responding(2)
        _ = t.requestCompleted(2, now: at(10))
        // 2 was answered 10 ms ago: its next request may be on its way, so it is not cut off yet.
        #expect(t.beginDrain(now: at(20)) == [])
        #expect(t.opened(4, now: at(20)) == .refuse)
        #expect(t.expired(now: at(1_010)) == [2])
        t.responding(1)
        #expect(t.requestCompleted(1, now: at(1_030)) == true)
        // 3 has not sent a request yet: it gets the rest of its request-line time.
        #expect(t.phase(of: 3) == .awaitingRequest(since: at(0)))
    }
}
