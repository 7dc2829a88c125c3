import Synchronization

/// A clock that moves only when a test says so. Its ``Instant`` serves alone too, for state
/// machines that are handed the time instead of reading a clock.
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: an offset from its start.
    public struct Instant: InstantProtocol {
        /// Time since the clock's start.
        public var offset: Duration
        /// The clock's start.
        public static let zero = Instant(offset: .zero)
        /// Makes the instant `offset` after the start.
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        public static func + (a: Instant, d: Duration) -> Instant { a.advanced(by: d) }
    }

    private let current = Mutex(Instant.zero)

    /// Makes a clock at its start.
    public init() {}

    public var now: Instant { current.withLock { $0 } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the clock forward.
    public func advance(_ duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        // Tests never sleep on this clock; they move it. Polling keeps a stray sleep finite.
        while now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}
