import Foundation
import Synchronization

/// Charges requests' characters to keys: one statement per charge while a key is quiet, and
/// through an ``Allowance`` while it is busy.
///
/// Why: every charge to a key updates the same database row. ``ChargeCombiner`` merges the
/// charges that queue in one process, but several replicas on one PostgreSQL each still commit
/// about every other request, and their commits wait on each other's row locks: three replicas
/// lost 14-20 % of their requests/s to that (`bench/bench_keys.py`). A busy key (at least
/// ``Policy/busyCharges`` charges in a second here) instead reserves about half a
/// second's characters at once (``KeyStore/reserve(_:characters:share:holder:now:)``), spends
/// them here, and reports what it spent every ``Policy/reportInterval``.
///
/// What stays exact: the quota is never overrun (reserved characters are counted against it
/// before they are spent); every character is billed, to within ``Policy/reportInterval`` of
/// when it was charged (this process reports its own before it answers a usage request); an
/// allowance is taken only while ``Policy/share`` times its size is left, so near the end of a
/// quota every charge is one statement, and a charge refused in this process is refused only
/// after this process gave its own reservation back. Other processes' reservations (half a
/// second's traffic, given back after ``Policy/idleRelease`` without use) may still be held
/// when a replica refuses a charge near the end of a quota.
final class KeyMeter: Sendable {
    /// When allowances are used, and how large they are.
    struct Policy: Sendable {
        /// Charges to one key in a second, in this process, that make it busy.
        var busyCharges = 50
        /// An allowance holds about this share of a second's characters…
        var reserveSeconds = 0.5
        /// …and at least this many of the charge that asks for it.
        var minimumCharges = 64
        /// An allowance is reserved only while this many times its size is left below the limit.
        var share = 8
        /// How often spent characters are reported (billed).
        var reportInterval: Duration = .milliseconds(100)
        /// An allowance not spent from for this long is given back.
        var idleRelease: Duration = .milliseconds(500)
        /// How often a hold is renewed when there is nothing else to report.
        var renewal: Duration = .seconds(10)
        /// Keys (per period) remembered before the forgettable ones are swept.
        var capacity = 10_000
    }

    /// What a charge came to.
    enum Outcome: Sendable, Equatable {
        /// Charged, from this process's allowance or by a statement of its own.
        case accepted(fromAllowance: Bool)
        /// Refused: it would pass the limit; the characters counted against it.
        case exceeded(used: Int)
    }

    private struct Entry: Sendable {
        var allowance = Allowance<ContinuousClock.Instant>()
        var rate = ChargeRate<ContinuousClock.Instant>()
        /// Charges waiting for the reservation under way.
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The database last refused a reservation (too little left): until then, none is asked for.
        var noReservationUntil: ContinuousClock.Instant?
        /// The size of the last reservation (the next is asked for when half of it is left).
        var lastReservation = 0
        /// Reports taken out of the allowance and not yet answered by the database.
        var sending = 0
        /// Waiting until `sending` is 0 (a usage answer that must include every report).
        var sent: [CheckedContinuation<Void, Never>] = []

        /// Nothing held, owed, on its way or waited for, and no charge this second or the last:
        /// the entry may be forgotten.
        func isForgettable(at now: ContinuousClock.Instant) -> Bool {
            allowance.isSettled && sending == 0 && waiters.isEmpty && sent.isEmpty && rate.charges(at: now) == 0
        }
    }

    /// What a charge does next.
    private enum Step {
        /// Spent from the allowance.
        case spent
        /// Spent from the allowance, which is running low: reserve this many more meanwhile.
        case spentAndRefill(Int)
        /// Reserve this many characters (this charge is the one to ask).
        case reserve(Int)
        /// Wait for the reservation under way, then look again.
        case wait
        /// Charge it by a statement of its own.
        case exact
    }

    let store: KeyStore
    let policy: Policy
    /// This process's name in the holds table.
    let holder: String
    private let entries = Mutex<[KeyStore.ChargedRow: Entry]>([:])
    /// Set by ``finish()``: no reservation is made after it.
    private let finished = Mutex(false)
    /// Reports while any allowance is held; nil otherwise.
    private let reporter = Mutex<Task<Void, Never>?>(nil)

    init(store: KeyStore, policy: Policy = Policy()) {
        self.store = store
        self.policy = policy
        holder = KeySecret.newIdentifier()
    }

    /// Charges `characters` to `key` in `period`.
    /// - Throws: ``DatabaseError``.
    func charge(_ key: APIKey, characters: Int, period: BillingPeriod) async throws -> Outcome {
        let row = KeyStore.ChargedRow(key: key, period: period)
        // Rounds: a charge that waited for a reservation looks again, and may have to ask for
        // the next one (a burst can spend one before every waiter had its turn). Each round
        // follows a reservation that was made or refused, so a charge ends on the allowance,
        // on a refusal (then by a statement) or, after 16 rounds of others spending, by a
        // statement.
        steps: for round in 0..<16 {
            switch nextStep(row, characters, counted: round > 0) {
            case .spent: return .accepted(fromAllowance: true)
            case .spentAndRefill(let size):
                // Asked for before the allowance runs out, so that charges do not wait for it
                // (a reservation may wait on another replica's report for the row's lock).
                Task { _ = try? await self.reserve(row, size: size, spending: 0) }
                return .accepted(fromAllowance: true)
            case .exact: break steps
            case .wait: await waitForReservation(row)
            case .reserve(let size):
                if try await reserve(row, size: size, spending: characters) { return .accepted(fromAllowance: true) }
                break steps
            }
        }
        switch try await store.charge(key, characters: characters, period: period) {
        case .accepted: return .accepted(fromAllowance: false)
        case .exceeded(let used):
            // This process's own reservation may be what is missing: a refill under way is
            // waited for and spent from; else the unspent rest is given back and the charge is
            // tried once more, so that it is refused only if it does not fit by itself.
            await waitForReservation(row)
            if entries.withLock({ $0[row]?.allowance.spend(characters, at: .now) ?? false }) { return .accepted(fromAllowance: true) }
            guard await release(row) else { return .exceeded(used: used) }
            switch try await store.charge(key, characters: characters, period: period) {
            case .accepted: return .accepted(fromAllowance: false)
            case .exceeded(let used): return .exceeded(used: used)
            }
        }
    }

    /// Spends from `row`'s allowance, or decides what to do instead (``Step``). A charge is
    /// counted in the key's rate once (`counted` after the first round).
    private func nextStep(_ row: KeyStore.ChargedRow, _ characters: Int, counted: Bool) -> Step {
        let now = ContinuousClock.now
        return entries.withLock { entries -> Step in
            if entries.count >= policy.capacity, entries[row] == nil {
                entries = entries.filter { !$0.value.isForgettable(at: now) }
            }
            var entry = entries[row] ?? Entry()
            defer { entries[row] = entry }
            if !counted { entry.rate.note(characters, at: now) }
            let spent = entry.allowance.spend(characters, at: now)
            if !spent, entry.allowance.reserving { return .wait }
            guard !entry.allowance.reserving, !finished.withLock({ $0 }), entry.rate.charges(at: now) >= policy.busyCharges,
                  entry.noReservationUntil.map({ now >= $0 }) ?? true,
                  !spent || entry.allowance.unspent < entry.lastReservation / 2 else {
                return spent ? .spent : .exact
            }
            entry.allowance.reserving = true
            let perSecond = Double(entry.rate.charactersPerSecond(at: now))
            let size = max(Int(perSecond * policy.reserveSeconds), characters * policy.minimumCharges)
            entry.lastReservation = size
            return spent ? .spentAndRefill(size) : .reserve(size)
        }
    }

    /// Waits until the reservation under way for `row` is done (at once if it is done already).
    private func waitForReservation(_ row: KeyStore.ChargedRow) async {
        await wait(on: row, while: { $0.allowance.reserving }, in: \.waiters)
    }

    /// Reserves `size` characters for `row` and spends `characters` of them (none: a refill
    /// ahead of need): false when the database refused (too little left) and nothing was
    /// spent. Wakes the charges that waited.
    private func reserve(_ row: KeyStore.ChargedRow, size: Int, spending characters: Int) async throws -> Bool {
        let outcome: Result<Bool, any Error>
        do {
            outcome = .success(try await store.reserve(row, characters: size, share: policy.share, holder: holder))
        } catch {
            outcome = .failure(error)
        }
        let reserved = (try? outcome.get()) ?? false
        let (spent, waiters) = entries.withLock { entries -> (Bool, [CheckedContinuation<Void, Never>]) in
            let now = ContinuousClock.now
            var entry = entries[row] ?? Entry()
            defer { entries[row] = entry }
            entry.allowance.reserving = false
            if reserved {
                entry.allowance.reserved(size, at: now)
            } else if case .success = outcome {
                entry.noReservationUntil = now + ChargeRate<ContinuousClock.Instant>.window
            }
            let waiters = entry.waiters
            entry.waiters = []
            return (reserved && (characters == 0 || entry.allowance.spend(characters, at: now)), waiters)
        }
        for waiter in waiters { waiter.resume() }
        if reserved { startReporting() }
        _ = try outcome.get()
        return spent
    }

    /// Gives a failed request's characters back.
    func refund(_ key: APIKey, characters: Int, period: BillingPeriod, fromAllowance: Bool) async throws {
        let row = KeyStore.ChargedRow(key: key, period: period)
        // Not reported yet: it goes back into the allowance; reported (billed): by a statement.
        if fromAllowance, entries.withLock({ $0[row]?.allowance.refund(characters) ?? false }) { return }
        try await store.refund(key, characters: characters, period: period)
    }

    /// Reports what is due now: every allowance's spent characters, and the unspent rest of
    /// those idle (all of them when `release`); only `key`'s when given.
    func report(release: Bool = false, key: String? = nil) async {
        let now = ContinuousClock.now
        let due = entries.withLock { entries in
            entries.keys.filter { key == nil || $0.key == key }.compactMap { row in
                takeReport(&entries, row, at: now, release: release).map { (row, $0) }
            }
        }
        for (row, report) in due { _ = await send(row, report) }
        // Reports that another caller (the reporter) took earlier may still be on their way:
        // waited for, so that the database has every charge made before this call.
        if let key { await waitForSends(key) }
    }

    /// Waits until no report of `key` is on its way to the database.
    private func waitForSends(_ key: String) async {
        let rows = entries.withLock { $0.filter { $0.key.key == key && $0.value.sending > 0 }.map(\.key) }
        for row in rows { await wait(on: row, while: { $0.sending > 0 }, in: \.sent) }
    }

    /// Suspends until `busy` no longer holds for `row`'s entry (at once if it does not now),
    /// queued in the entry's `queue`, which whoever ends that state resumes.
    private func wait(on row: KeyStore.ChargedRow, while busy: (Entry) -> Bool,
                      in queue: WritableKeyPath<Entry, [CheckedContinuation<Void, Never>]>) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queued = entries.withLock { entries -> Bool in
                guard let entry = entries[row], busy(entry) else { return false }
                entries[row]![keyPath: queue].append(continuation)
                return true
            }
            if !queued { continuation.resume() }
        }
    }

    /// Takes `row`'s report due `at` out of its allowance (all that is left when `release`), and
    /// counts it as on its way (``send(_:_:)`` counts it back).
    private func takeReport(_ entries: inout [KeyStore.ChargedRow: Entry], _ row: KeyStore.ChargedRow,
                            at now: ContinuousClock.Instant, release: Bool) -> AllowanceReport? {
        guard let report = entries[row]?.allowance.takeReport(at: now, idleRelease: policy.idleRelease,
                                                              renewal: policy.renewal, release: release) else { return nil }
        entries[row]!.sending += 1
        return report
    }

    /// Gives back `row`'s unspent reservation: true when there was one and the database took it.
    private func release(_ row: KeyStore.ChargedRow) async -> Bool {
        let now = ContinuousClock.now
        let report = entries.withLock { entries -> AllowanceReport? in
            guard let entry = entries[row], entry.allowance.unspent > 0 else { return nil }
            return takeReport(&entries, row, at: now, release: true)
        }
        guard let report else { return false }
        return await send(row, report) && report.released > 0
    }

    /// Sends one report (counted in its entry's `sending` when it was taken): true when the
    /// database took it as it was.
    private func send(_ row: KeyStore.ChargedRow, _ report: AllowanceReport) async -> Bool {
        let outcome: Result<Bool, any Error>
        do { outcome = .success(try await store.report(row, report, holder: holder)) } catch { outcome = .failure(error) }
        let waiters = entries.withLock { entries -> [CheckedContinuation<Void, Never>] in
            var entry = entries[row] ?? Entry()
            defer { entries[row] = entry }
            switch outcome {
            case .success(true): break
            case .success(false):
                // The hold was taken as abandoned (this process was stopped for a minute): all
                // of it is billed, so nothing of it may be spent or reported again.
                entry.allowance.forfeit()
            case .failure:
                // The database is down: the figures are owed, and go with the next report.
                entry.allowance.restore(report)
            }
            entry.sending -= 1
            guard entry.sending == 0 else { return [] }
            let waiters = entry.sent
            entry.sent = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
        return (try? outcome.get()) ?? false
    }

    /// Reports everything and gives every reservation back (at shutdown).
    func finish() async {
        finished.withLock { $0 = true }
        // A reservation under way (a refill ahead of need runs on its own) lands first, so that
        // it is given back too.
        let reserving = entries.withLock { $0.filter(\.value.allowance.reserving).map(\.key) }
        for row in reserving { await waitForReservation(row) }
        await report(release: true)
        reporter.withLock { $0?.cancel(); $0 = nil }
    }

    private func startReporting() {
        reporter.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in
                while let interval = self?.policy.reportInterval {
                    try? await Task.sleep(for: interval)
                    guard let self, !Task.isCancelled else { return }
                    await self.report()
                    // Decided under the reporter's lock, which a new reservation also takes
                    // (after it is recorded): either this sees it, or it starts a new reporter.
                    let done = self.reporter.withLock { task in
                        guard self.entries.withLock({ $0.values.allSatisfy(\.allowance.isSettled) }) else { return false }
                        task = nil
                        return true
                    }
                    if done { return }
                }
            }
        }
    }
}
