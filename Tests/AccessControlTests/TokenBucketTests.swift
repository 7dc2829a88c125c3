@testable import AccessControl
import Testing
import TranslationTesting

@Suite("Token buckets and the rate limiter, driven by a fake clock")
struct TokenBucketTests {
    typealias Instant = ManualClock.Instant
    let t0 = Instant(offset: .zero)

    @Test("N per minute: N at once after idling, then one every 60/N seconds; a refusal says when")
    func perMinute() {
        var bucket = TokenBucket(perMinute: 6, now: t0)
        for _ in 0..<6 { #expect(bucket.take(at: t0) == .allowed) }
        #expect(bucket.take(at: t0) == .refused(retryAfter: .seconds(10)))
        // A refusal takes nothing: after the wait it names, the request is allowed.
        #expect(bucket.take(at: t0 + .seconds(4)) == .refused(retryAfter: .seconds(6)))
        #expect(bucket.take(at: t0 + .seconds(10)) == .allowed)
        #expect(bucket.take(at: t0 + .seconds(10)) == .refused(retryAfter: .seconds(10)))
        // Idle for long, it refills to its capacity and no further.
        #expect(bucket.isFull(at: t0 + .seconds(70)))
        for _ in 0..<6 { #expect(bucket.take(at: t0 + .seconds(3600)) == .allowed) }
        #expect(bucket.take(at: t0 + .seconds(3600)) != .allowed)
    }

    @Test("Time going backwards adds no tokens; a cost above the capacity waits for a full bucket")
    func edges() {
        var bucket = TokenBucket(capacity: 2, ratePerSecond: 1, now: t0 + .seconds(100))
        #expect(bucket.take(2, at: t0 + .seconds(100)) == .allowed)
        #expect(bucket.take(at: t0 + .seconds(50)) == .refused(retryAfter: .seconds(1)))
        #expect(bucket.take(5, at: t0 + .seconds(100)) == .refused(retryAfter: .seconds(2)))
        #expect(bucket.take(at: t0 + .milliseconds(100_500)) == .refused(retryAfter: .milliseconds(500)))
    }

    @Test("The limiter keeps one bucket per caller, follows a changed limit, and forgets idle callers")
    func limiter() {
        let clock = ManualClock()
        let limiter = RateLimiter(clock: clock, maxCallers: 8)
        #expect(limiter.take("a", perMinute: 1) == nil)
        #expect(limiter.take("a", perMinute: 1) == .seconds(60))
        #expect(limiter.take("b", perMinute: 1) == nil)
        clock.advance(.seconds(30))
        #expect(limiter.take("a", perMinute: 1) == .seconds(30))
        // A new limit for the caller starts a new, full bucket.
        #expect(limiter.take("a", perMinute: 2) == nil)
        clock.advance(.seconds(60))
        for i in 0..<20 { _ = limiter.take("c\(i)", perMinute: 100) }
        #expect(limiter.callers <= 8)
        // Callers still limited are the last to be forgotten.
        clock.advance(.seconds(1))
        #expect(limiter.take("c19", perMinute: 1) == nil)
        #expect(limiter.take("c19", perMinute: 1) != nil)
    }
}
