import Synchronization

/// Token buckets by caller (a key's identifier, or a client address), owned behind one lock:
/// each decision is a ``TokenBucket`` value updated in place, so the lock is held for a few
/// arithmetic operations. The clock is injected (`now`), so tests move time by hand.
///
/// Memory is bounded: when there are more than ``maxCallers`` buckets, those that have refilled
/// (their callers idle long enough to be forgotten without changing any later decision) are
/// dropped; if that is not enough, the least recently used are.
public final class RateLimiter<C: Clock>: Sendable where C.Duration == Duration, C.Instant: Sendable {
    private struct Entry {
        var bucket: TokenBucket<C.Instant>
        var perMinute: Int
    }

    private let clock: C
    private let buckets = Mutex<[String: Entry]>([:])
    /// Buckets kept before idle ones are dropped.
    public let maxCallers: Int

    /// A limiter on `clock`.
    public init(clock: C, maxCallers: Int = 100_000) {
        self.clock = clock
        self.maxCallers = maxCallers
    }

    /// Takes one request for `caller`, allowed `perMinute` requests per minute; nil when
    /// allowed, else the time until the next one would be.
    public func take(_ caller: String, perMinute: Int) -> Duration? {
        let now = clock.now
        return buckets.withLock { buckets -> Duration? in
            var entry = buckets[caller] ?? Entry(bucket: TokenBucket(perMinute: perMinute, now: now), perMinute: perMinute)
            if entry.perMinute != perMinute {
                // The limit changed (the key's record was edited): start over at the new one.
                entry = Entry(bucket: TokenBucket(perMinute: perMinute, now: now), perMinute: perMinute)
            }
            let decision = entry.bucket.take(at: now)
            buckets[caller] = entry
            if buckets.count > maxCallers { Self.evict(&buckets, now: now, keep: maxCallers) }
            if case .refused(let wait) = decision { return wait }
            return nil
        }
    }

    /// How many callers have a bucket.
    public var callers: Int { buckets.withLock { $0.count } }

    private static func evict(_ buckets: inout [String: Entry], now: C.Instant, keep: Int) {
        buckets = buckets.filter { !$0.value.bucket.isFull(at: now) }
        // Leave room for a quarter of `keep` newcomers before the next sweep, so sweeps (linear
        // in the callers) stay rare however many callers there are.
        guard buckets.count > keep * 3 / 4 else { return }
        let oldest = buckets.sorted { $0.value.bucket.updated < $1.value.bucket.updated }.prefix(buckets.count - keep / 2)
        for (caller, _) in oldest { buckets[caller] = nil }
    }
}
