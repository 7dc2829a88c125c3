/// Characters this process has reserved against one key's quota in one period, and spends
/// without a database round trip (see ``KeyMeter``).
///
/// Invariant: the database's hold row for this process holds `unspent + spent` (until a
/// report moves `spent` to the bill and gives `unspent` back), so what is spent here was
/// already counted against the quota when it was reserved: spending never overruns it.
struct Allowance<Instant: InstantProtocol>: Sendable where Instant: Sendable, Instant.Duration == Duration {
    /// Reserved and not spent.
    private(set) var unspent = 0
    /// Spent since the last report (still in the hold).
    private(set) var spent = 0
    /// Requests charged since the last report.
    private(set) var requests = 0
    /// When the last charge was spent from it (nil: never).
    private(set) var lastSpend: Instant?
    /// When the database last heard of this hold (a report or a reservation).
    private(set) var lastReport: Instant?
    /// A reservation is being made (charges meanwhile are charged one by one).
    var reserving = false

    /// Spends `characters` for one request, when enough is reserved.
    mutating func spend(_ characters: Int, at now: Instant) -> Bool {
        guard characters <= unspent else { return false }
        unspent -= characters
        spent += characters
        requests += 1
        lastSpend = now
        return true
    }

    /// Gives back a spend not yet reported (its request failed): true when it was one.
    mutating func refund(_ characters: Int) -> Bool {
        guard characters <= spent, requests > 0 else { return false }
        spent -= characters
        requests -= 1
        unspent += characters
        return true
    }

    /// `characters` more were reserved at `now`.
    mutating func reserved(_ characters: Int, at now: Instant) {
        unspent += characters
        lastReport = now
    }

    /// Takes what is due at `now` out of the allowance: what was spent, and the unspent rest
    /// when nothing was spent for `idleRelease` (or `release`). Nil when there is nothing to
    /// say and the hold was renewed within `renewal`.
    mutating func takeReport(at now: Instant, idleRelease: Duration, renewal: Duration, release: Bool = false) -> AllowanceReport? {
        let idle = lastSpend.map { $0.duration(to: now) >= idleRelease } ?? true
        let report = AllowanceReport(spent: spent, requests: requests, released: release || idle ? unspent : 0)
        let renew = (unspent > 0 || spent > 0) && (lastReport.map { $0.duration(to: now) >= renewal } ?? true)
        guard !report.isEmpty || renew else { return nil }
        spent = 0
        requests = 0
        unspent -= report.released
        lastReport = now
        return report
    }

    /// A report that did not reach the database: its figures are owed again.
    mutating func restore(_ report: AllowanceReport) {
        spent += report.spent
        requests += report.requests
        unspent += report.released
    }

    /// The database no longer holds this allowance (it was taken as abandoned): nothing is
    /// left to spend, and what was spent is billed already.
    mutating func forfeit() {
        unspent = 0
        spent = 0
    }

    /// Nothing is reserved or owed.
    var isSettled: Bool { unspent == 0 && spent == 0 && requests == 0 && !reserving }
}

/// Charges to one key in this process over the last second or two: tells a busy key (worth an
/// allowance) from a quiet one, and how large an allowance half a second takes.
struct ChargeRate<Instant: InstantProtocol>: Sendable where Instant: Sendable, Instant.Duration == Duration {
    private var windowStart: Instant?
    private var current = (charges: 0, characters: 0)
    private var previous = (charges: 0, characters: 0)
    static var window: Duration { .seconds(1) }

    /// Counts one charge of `characters` at `now`.
    mutating func note(_ characters: Int, at now: Instant) {
        advance(to: now)
        current.charges += 1
        current.characters += characters
    }

    /// Charges in the last full window or the current one, whichever is more.
    func charges(at now: Instant) -> Int {
        var copy = self
        copy.advance(to: now)
        return max(copy.current.charges, copy.previous.charges)
    }

    /// Characters per second, as the busier of the two windows counts them.
    func charactersPerSecond(at now: Instant) -> Int {
        var copy = self
        copy.advance(to: now)
        return max(copy.current.characters, copy.previous.characters)
    }

    private mutating func advance(to now: Instant) {
        guard let start = windowStart else { windowStart = now; return }
        let elapsed = start.duration(to: now)
        guard elapsed >= Self.window else { return }
        // One window on: the current becomes the previous; two or more: both are empty.
        previous = elapsed < Self.window * 2 ? current : (0, 0)
        current = (0, 0)
        windowStart = elapsed < Self.window * 2 ? start.advanced(by: Self.window) : now
    }
}

/// What a report of an ``Allowance`` tells the database: spent characters and requests to bill,
/// unspent characters to give back (all zero: the hold is only renewed).
struct AllowanceReport: Sendable, Equatable {
    var spent: Int
    var requests: Int
    var released: Int
    var isEmpty: Bool { spent == 0 && requests == 0 && released == 0 }
}
