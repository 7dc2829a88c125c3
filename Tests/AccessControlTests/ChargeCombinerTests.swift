@testable import AccessControl
import Testing

/// A usage row in memory whose statements take a while, so that charges queue behind each other.
private actor FakeRow {
    let limit: Int
    private(set) var total = 0
    private(set) var statements = 0
    var failNext = false

    init(limit: Int) { self.limit = limit }

    func add(_ characters: Int) async throws -> Int? {
        statements += 1
        try await Task.sleep(for: .milliseconds(2))
        if failNext {
            failNext = false
            throw FakeOutage()
        }
        guard total + characters <= limit else { return nil }
        total += characters
        return total
    }

    func fail() { failNext = true }
}

private struct FakeOutage: Error {}

@Suite("Charges to one key combine into one statement without passing its limit")
struct ChargeCombinerTests {
    private func combiner(_ row: FakeRow) -> ChargeCombiner<String> {
        ChargeCombiner(add: { _, characters, _ in try await row.add(characters) }, read: { _ in await row.total })
    }

    @Test("Concurrent charges share statements; each gets the total it would have seen in turn")
    func combines() async throws {
        let row = FakeRow(limit: 1_000)
        let charges = combiner(row)
        let totals = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    guard case .accepted(let total) = try await charges.charge("k", characters: 3) else { return -1 }
                    return total
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(totals.sorted() == Array(stride(from: 3, through: 150, by: 3)))
        #expect(await row.total == 150)
        #expect(await row.statements < 50)
    }

    @Test("Near the limit: accepted charges fit, and every refused one would not have fitted")
    func exactAtTheLimit() async throws {
        let row = FakeRow(limit: 100)
        let charges = combiner(row)
        let amounts = [60, 30, 20, 15, 9, 7, 5, 3, 2, 1, 40, 11]
        let outcomes = try await withThrowingTaskGroup(of: (Int, KeyStore.Charge).self) { group in
            for amount in amounts {
                group.addTask { (amount, try await charges.charge("k", characters: amount)) }
            }
            return try await group.reduce(into: [(Int, KeyStore.Charge)]()) { $0.append($1) }
        }
        let accepted = outcomes.filter { if case .accepted = $0.1 { true } else { false } }.map(\.0)
        let final = await row.total
        #expect(accepted.reduce(0, +) == final && final <= 100)
        // The total only grows, so a charge refused at its turn does not fit at the end either.
        for (amount, outcome) in outcomes {
            if case .exceeded(let used) = outcome {
                #expect(used + amount > 100)
                #expect(final + amount > 100)
            }
        }
    }

    @Test("A failed statement fails the charges it carried, and the next charge runs again")
    func failure() async throws {
        let row = FakeRow(limit: 100)
        let charges = combiner(row)
        await row.fail()
        await #expect(throws: FakeOutage.self) { try await charges.charge("k", characters: 1) }
        #expect(try await charges.charge("k", characters: 1) == .accepted(total: 1))
        // Other keys never wait for this one.
        #expect(try await charges.charge("other", characters: 2) == .accepted(total: 3))
    }
}
