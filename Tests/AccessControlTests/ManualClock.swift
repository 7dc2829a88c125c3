import Synchronization

/// A clock that moves only when a test says so.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        static func + (a: Instant, d: Duration) -> Instant { a.advanced(by: d) }
    }

    private let current = Mutex(Instant(offset: .zero))
    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(_ duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        // Tests never sleep on this clock; they move it.
        while now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}
