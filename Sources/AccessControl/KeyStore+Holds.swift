import Foundation
import SQLDatabase

/// Holds: characters a process reserved against a key's quota to spend without a statement per
/// request (``KeyMeter``, ``Allowance``).
///
/// Invariant: a hold's characters are in the usage row's `characters` from the moment they are
/// reserved, so the quota check (``add(_:_:characters:requests:)``) counts them and no process
/// can spend them twice; the bill is the row's characters less the holds. A report moves spent
/// characters from the hold to the bill (the row's total does not change) and gives the unspent
/// back. A hold not renewed for ``staleHoldSeconds`` belongs to a process that died: it is
/// deleted, which leaves its characters billed, whether they were spent or not (a key may be
/// billed for a reservation it did not use, never the other way round).
extension KeyStore {
    /// Seconds after which a hold that was not renewed is taken as abandoned.
    static let staleHoldSeconds = 60

    /// Reserves `characters` for `holder` (and takes back the holds abandoned on `row`) unless
    /// the row would then have less than `characters × share` left below its limit: true when
    /// reserved. `now` (tests) stands in for the database's clock.
    func reserve(_ row: ChargedRow, characters: Int, share: Int, holder: String, now: Date? = nil) async throws -> Bool {
        try await prepare()
        // The first charge of a period inserts the row: the WHERE guards only the update.
        guard characters * share <= row.limit else { return false }
        let stale = clock(now.map { $0.addingTimeInterval(-Double(Self.staleHoldSeconds)) }, parameter: 3,
                          minus: Self.staleHoldSeconds)
        let renewed = clock(now, parameter: 5)
        return try await database.transaction(exclusive: true) { tx in
            let added = try tx.execute("""
                INSERT INTO glossa_key_usage (key_id, period, characters, requests) VALUES ($1, $2, $3, 0)
                ON CONFLICT (key_id, period) DO UPDATE
                    SET characters = glossa_key_usage.characters + excluded.characters
                    WHERE glossa_key_usage.characters + $4 <= $5
                RETURNING characters
                """, [.text(row.key), .text(row.period), .integer(characters), .integer(characters * share), .integer(row.limit)])
            // After the usage row (its lock first, as in every transaction here): holds not
            // renewed for a minute are taken back, billed, whether this reservation fits or not.
            try tx.execute("DELETE FROM glossa_key_holds WHERE key_id = $1 AND period = $2 AND renewed_at < \(stale.sql)",
                           [.text(row.key), .text(row.period)] + stale.values)
            guard !added.isEmpty else { return false }
            try tx.execute("""
                INSERT INTO glossa_key_holds (key_id, period, holder, characters, renewed_at) VALUES ($1, $2, $3, $4, \(renewed.sql))
                ON CONFLICT (key_id, period, holder) DO UPDATE
                    SET characters = glossa_key_holds.characters + excluded.characters, renewed_at = excluded.renewed_at
                """, [.text(row.key), .text(row.period), .text(holder), .integer(characters)] + renewed.values)
            return true
        }
    }

    /// Tells the database what `holder` spent of its hold on `row` (billed), how many requests,
    /// and what it gives back; renews the hold. False when the hold was gone (taken as
    /// abandoned: everything in it is billed already, and only the requests are added).
    func report(_ row: ChargedRow, _ report: AllowanceReport, holder: String,
                now: Date? = nil) async throws -> Bool {
        try await prepare()
        let renewed = clock(now, parameter: 5)
        let taken = report.spent + report.released
        let locksRows = database.flavor == .postgres
        return try await database.transaction(exclusive: true) { tx in
            // The usage row first, as every statement that changes it does, then the hold: two
            // transactions that took them in other orders would deadlock on PostgreSQL. (SQLite's
            // exclusive transaction already holds the whole file.)
            if locksRows {
                try tx.execute("SELECT characters FROM glossa_key_usage WHERE key_id = $1 AND period = $2 FOR UPDATE",
                               [.text(row.key), .text(row.period)])
            }
            let held = try tx.execute("""
                UPDATE glossa_key_holds SET characters = characters - $4, renewed_at = \(renewed.sql)
                WHERE key_id = $1 AND period = $2 AND holder = $3 AND characters >= $4
                RETURNING characters
                """, [.text(row.key), .text(row.period), .text(holder), .integer(taken)] + renewed.values)
            let found = !held.isEmpty
            let released = found ? report.released : 0
            if released > 0 || report.requests > 0 {
                try tx.execute("""
                    UPDATE glossa_key_usage SET characters = characters - $3, requests = requests + $4
                    WHERE key_id = $1 AND period = $2
                    """, [.text(row.key), .text(row.period), .integer(released), .integer(report.requests)])
            }
            if held.first?.integer(0) == 0 {
                try tx.execute("DELETE FROM glossa_key_holds WHERE key_id = $1 AND period = $2 AND holder = $3 AND characters = 0",
                               [.text(row.key), .text(row.period), .text(holder)])
            }
            return found
        }
    }

    /// The time now less `minus` seconds, in whole seconds, as SQL: parameter `$parameter`
    /// bound to `now` when given (tests; already less `minus`), else the database's own clock,
    /// which every process sharing it reads alike (replicas' clocks may disagree by more than the
    /// minute a hold may go unrenewed).
    private func clock(_ now: Date?, parameter: Int, minus: Int = 0) -> (sql: String, values: [SQLValue]) {
        if let now { return ("$\(parameter)", [.integer(Int(now.timeIntervalSince1970))]) }
        switch database.flavor {
        case .postgres: return ("(CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS BIGINT) - \(minus))", [])
        case .sqlite: return ("(CAST(strftime('%s', 'now') AS INTEGER) - \(minus))", [])
        }
    }

    /// What the holds on one key and period take out of the row's characters (an SQL
    /// expression over the usage row `u`).
    static let heldCharacters = """
        COALESCE((SELECT SUM(h.characters) FROM glossa_key_holds h WHERE h.key_id = u.key_id AND h.period = u.period), 0)
        """
}
