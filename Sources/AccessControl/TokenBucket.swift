/// A token bucket as a plain value: `capacity` tokens at most, refilled at `ratePerSecond`; a
/// request takes one token (or `cost`), and is refused when the bucket holds fewer. The state
/// moves only when ``take(_:at:)`` is called with the current time, so tests drive it with any
/// instants they like (a fake clock), and ``RateLimiter`` owns many of them behind one lock.
///
/// A limit of N requests per minute is `capacity` N and `ratePerSecond` N/60: a caller idle for
/// a minute may send N at once, then one every 60/N seconds — what "N per minute" promises,
/// without the burst at every window boundary of a fixed-window counter.
public struct TokenBucket<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The most tokens it holds.
    public let capacity: Double
    /// Tokens added per second.
    public let ratePerSecond: Double
    /// Tokens held at ``updated``.
    public private(set) var tokens: Double
    /// When ``tokens`` was last brought up to date.
    public private(set) var updated: Instant

    /// What ``take(_:at:)`` decided.
    public enum Decision: Sendable, Equatable {
        /// Taken.
        case allowed
        /// Refused: the tokens would be there after `retryAfter`.
        case refused(retryAfter: Duration)
    }

    /// A full bucket at `now`.
    public init(capacity: Double, ratePerSecond: Double, now: Instant) {
        precondition(capacity > 0 && ratePerSecond > 0, "a token bucket needs a positive capacity and rate")
        self.capacity = capacity
        self.ratePerSecond = ratePerSecond
        tokens = capacity
        updated = now
    }

    /// `N` requests per minute.
    public init(perMinute n: Int, now: Instant) {
        self.init(capacity: Double(n), ratePerSecond: Double(n) / 60, now: now)
    }

    /// Takes `cost` tokens at `now`, or refuses and says when they would be there. A refusal
    /// takes nothing, so a caller that waits `retryAfter` is then allowed.
    public mutating func take(_ cost: Double = 1, at now: Instant) -> Decision {
        refill(to: now)
        if tokens >= cost {
            tokens -= cost
            return .allowed
        }
        let seconds = (min(cost, capacity) - tokens) / ratePerSecond
        return .refused(retryAfter: .nanoseconds(Int64((seconds * 1e9).rounded(.up))))
    }

    /// Whether it would be full at `now` (an idle caller's bucket can be forgotten and remade).
    public func isFull(at now: Instant) -> Bool {
        var copy = self
        copy.refill(to: now)
        return copy.tokens >= capacity
    }

    private mutating func refill(to now: Instant) {
        // A clock that went backwards (or the same instant) adds nothing.
        guard now > updated else { return }
        let elapsed = updated.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(capacity, tokens + seconds * ratePerSecond)
        updated = now
    }
}
