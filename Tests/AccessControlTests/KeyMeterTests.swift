@testable import AccessControl
import DatabaseTestSupport
import Foundation
import SQLDatabase
import Testing

@Suite("Allowances in the key store: busy keys charged without a statement per request, on SQLite and PostgreSQL")
struct KeyMeterTests {
    /// Busy from the first charge, so that every test takes the allowance path.
    static let eager = KeyMeter.Policy(busyCharges: 1, reserveSeconds: 0.25, minimumCharges: 16, share: 8,
                                       reportInterval: .milliseconds(50), idleRelease: .milliseconds(200), renewal: .seconds(10))
    /// Eager, and nothing is reported or given back by itself for a minute: what a test sees
    /// does not depend on how fast a loaded machine runs it.
    static let patient = KeyMeter.Policy(busyCharges: 1, reserveSeconds: 0.25, minimumCharges: 64, share: 8,
                                         reportInterval: .seconds(60), idleRelease: .seconds(60), renewal: .seconds(60))

    @Test("Charges to a busy key come from a reservation; usage is exact once reported, and nothing stays held after finish",
          arguments: StoreKind.available)
    func busyKey(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, policy: Self.patient, key: "busy", limit: 1_000_000)
        defer { f.database.close() }
        let (database, store, meter, key, period) = (f.database, f.store, f.meter, f.key, f.period)
        let outcomes = try await withThrowingTaskGroup(of: KeyMeter.Outcome.self) { group in
            for _ in 0..<200 { group.addTask { try await meter.charge(key, characters: 10, period: period) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { if case .accepted = $0 { true } else { false } })
        let fromAllowance = outcomes.filter { $0 == .accepted(fromAllowance: true) }.count
        // At least the first reservation's 64 charges (the policy's minimum; nothing is given
        // back meanwhile). Usually nearly all 200, but a charge that waited two seconds for a
        // reservation on a loaded machine finds the key's rate window empty and is charged by
        // a statement (CI saw 64).
        #expect(fromAllowance >= 64, "only \(fromAllowance) of 200 charges came from an allowance")
        // Reserved but not spent is held, not billed.
        let held = try await database.execute("SELECT SUM(characters) FROM glossa_key_holds").first?.integer(0) ?? 0
        #expect(held > 0)
        await meter.report(key: key.id)
        #expect(try await store.usage(of: key, period: period) == KeyUsage(key: key, period: period, characters: 2_000, requests: 200))
        await meter.finish()
        #expect(try await database.execute("SELECT COUNT(*) FROM glossa_key_holds").first?.integer(0) == 0)
        let row = try await database.execute("SELECT characters, requests FROM glossa_key_usage").first
        #expect(row?.integer(0) == 2_000 && row?.integer(1) == 200)
    }

    @Test("Spent characters are billed within the report interval without anyone asking; an idle reservation goes back",
          arguments: StoreKind.available)
    func reportsByThemselves(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, policy: Self.eager, key: "quiet later", limit: nil)
        defer { f.database.close() }
        let (database, store, meter, key, period) = (f.database, f.store, f.meter, f.key, f.period)
        for _ in 0..<5 { #expect(try await meter.charge(key, characters: 3, period: period) == .accepted(fromAllowance: true)) }
        // Reported within 50 ms and given back 200 ms after the last use; a loaded machine may
        // take longer, so the test waits for it (a reporter that never ran fails after 20 s).
        let deadline = ContinuousClock.now + .seconds(20)
        var settled = false
        while !settled, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            let holds = try await database.execute("SELECT COUNT(*) FROM glossa_key_holds").first?.integer(0)
            let billed = try await store.usage(of: key, period: period).characters
            settled = holds == 0 && billed == 15
        }
        #expect(settled)
        #expect(try await database.execute("SELECT characters, requests FROM glossa_key_usage").first?.values == [.integer(15), .integer(5)])
    }

    @Test("A usage answer right after a burst includes every charge, also those the reporter is sending meanwhile",
          arguments: StoreKind.available)
    func usageWhileReporting(_ kind: StoreKind) async throws {
        // Reports every millisecond, so that one is usually on its way when usage is asked for.
        var policy = Self.eager
        policy.reportInterval = .milliseconds(1)
        let f = try await Fixture(kind, policy: policy, key: "usage", limit: nil)
        defer { f.database.close() }
        let (store, meter, key, period) = (f.store, f.meter, f.key, f.period)
        for burst in 1...20 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<25 { group.addTask { _ = try await meter.charge(key, characters: 4, period: period) } }
                try await group.waitForAll()
            }
            await meter.report(key: key.id)
            #expect(try await store.usage(of: key, period: period) == KeyUsage(key: key, period: period, characters: burst * 100, requests: burst * 25))
        }
        await meter.finish()
    }

    @Test("One process, 64 clients racing a busy key: exactly the quota's best fill is accepted and billed",
          arguments: StoreKind.available)
    func exactInOneProcess(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, policy: Self.eager, key: "race", limit: 20_000)
        defer { f.database.close() }
        let (store, meter, key, period) = (f.store, f.meter, f.key, f.period)
        let accepted = try await race(meter: { _ in meter }, key: key, period: period)
        await meter.finish()
        // 20,000 is not a multiple of 7: the best fill is 19,999, and every charge that fitted was taken.
        #expect(accepted.characters == 19_999 && accepted.fromAllowance > 0)
        #expect(try await store.usage(of: key, period: period) == KeyUsage(key: key, period: period, characters: 19_999, requests: 2_857))
    }

    @Test("Four processes racing a busy key never pass its quota, and bill exactly what they accepted",
          arguments: StoreKind.available)
    func neverOverrunAcrossProcesses(_ kind: StoreKind) async throws {
        let location = try await kind.location()
        let stores = (0..<4).map { _ in KeyStore(database: Database(location, connections: 4)) }
        defer { stores.forEach { $0.database.close() } }
        let meters = stores.map { KeyMeter(store: $0, policy: Self.eager) }
        let (key, _) = try await stores[0].create(name: "cluster race", charactersPerMonth: 20_000, requestsPerMinute: nil)
        let period = BillingPeriod.containing(Date())
        let accepted = try await race(meter: { meters[$0 % 4] }, key: key, period: period)
        for meter in meters { await meter.finish() }
        #expect(accepted.characters <= 20_000 && accepted.fromAllowance > 0)
        let usage = try await stores[0].usage(of: key, period: period)
        #expect(usage.characters == accepted.characters && usage.requests == accepted.characters / 7)
    }

    @Test("A hold its process abandoned is taken back by the next reservation, and stays billed", arguments: StoreKind.available)
    func abandonedHold(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, policy: Self.eager, key: "orphan", limit: 10_000)
        defer { f.database.close() }
        let (store, key, period) = (f.store, f.key, f.period)
        let row = KeyStore.ChargedRow(key: key, period: period)
        let then = Date().addingTimeInterval(-Double(KeyStore.staleHoldSeconds + 5))
        #expect(try await store.reserve(row, characters: 500, share: 8, holder: "dead", now: then))
        // Held: counted against the quota, not billed.
        #expect(try await store.usage(of: key, period: period).characters == 0)
        #expect(try await store.charge(key, characters: 9_501, period: period) == .exceeded(used: 500))
        #expect(try await store.reserve(row, characters: 100, share: 8, holder: "alive"))
        #expect(try await store.usage(of: key, period: period).characters == 500)
        // The dead holder's report finds nothing to take back.
        #expect(try await !store.report(row, AllowanceReport(spent: 0, requests: 1, released: 500), holder: "dead"))
        #expect(try await store.usage(of: key, period: period) == KeyUsage(key: key, period: period, characters: 500, requests: 1))
    }

    @Test("Past its capacity the meter forgets quiet keys, never one with a reservation", arguments: StoreKind.available)
    func sweepKeepsHolds(_ kind: StoreKind) async throws {
        var policy = Self.patient
        policy.capacity = 2
        let f = try await Fixture(kind, policy: policy, key: "held", limit: nil)
        defer { f.database.close() }
        let (database, store, meter, key, period) = (f.database, f.store, f.meter, f.key, f.period)
        #expect(try await meter.charge(key, characters: 5, period: period) == .accepted(fromAllowance: true))
        // Two more keys, each charged once: the meter now remembers more keys than its capacity.
        for name in ["other", "third"] {
            let (other, _) = try await store.create(name: name, charactersPerMonth: nil, requestsPerMinute: nil)
            _ = try await meter.charge(other, characters: 5, period: period)
        }
        // The first key's reservation is still this meter's: spent from, reported, given back.
        #expect(try await meter.charge(key, characters: 5, period: period) == .accepted(fromAllowance: true))
        await meter.finish()
        #expect(try await database.execute("SELECT COUNT(*) FROM glossa_key_holds").first?.integer(0) == 0)
        #expect(try await store.usage(of: key, period: period).characters == 10)
    }

    @Test("A failed request's charge goes back into the allowance before it is reported, and by a statement after",
          arguments: StoreKind.available)
    func refunds(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, policy: Self.patient, key: "refunds", limit: nil)
        defer { f.database.close() }
        let (store, meter, key, period) = (f.store, f.meter, f.key, f.period)
        #expect(try await meter.charge(key, characters: 40, period: period) == .accepted(fromAllowance: true))
        #expect(try await meter.charge(key, characters: 2, period: period) == .accepted(fromAllowance: true))
        try await meter.refund(key, characters: 40, period: period, fromAllowance: true)
        await meter.report(key: key.id)
        #expect(try await store.usage(of: key, period: period) == KeyUsage(key: key, period: period, characters: 2, requests: 1))
        try await meter.refund(key, characters: 2, period: period, fromAllowance: true)
        await meter.finish()
        #expect(try await store.usage(of: key, period: period) == KeyUsage(key: key, period: period, characters: 0, requests: 0))
    }

    /// 64 clients, each charging 7 characters 50 times through `meter(client)`.
    private func race(meter: @escaping @Sendable (Int) -> KeyMeter, key: APIKey, period: BillingPeriod) async throws
        -> (characters: Int, fromAllowance: Int) {
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for client in 0..<64 {
                group.addTask {
                    var mine = (0, 0)
                    for _ in 0..<50 {
                        if case .accepted(let fromAllowance) = try await meter(client).charge(key, characters: 7, period: period) {
                            mine.0 += 7
                            mine.1 += fromAllowance ? 1 : 0
                        }
                    }
                    return mine
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
    }

    /// A store on a fresh database of one kind, a meter over it, and a key.
    private struct Fixture {
        let database: Database
        let store: KeyStore
        let meter: KeyMeter
        let key: APIKey
        let period = BillingPeriod.containing(Date())

        init(_ kind: StoreKind, policy: KeyMeter.Policy, key name: String, limit: Int?) async throws {
            database = Database(try await kind.location())
            store = KeyStore(database: database)
            meter = KeyMeter(store: store, policy: policy)
            key = try await store.create(name: name, charactersPerMonth: limit, requestsPerMinute: nil).key
        }
    }
}
