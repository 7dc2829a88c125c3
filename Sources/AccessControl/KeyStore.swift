import Foundation
import SQLDatabase
import Synchronization

/// API keys, their limits and their usage, in a SQLite file or a PostgreSQL database shared by
/// several Glossa processes. The schema is brought up to date before the first statement
/// (``KeyStore/schema``), so a process can start while its database is down and pick it up later.
///
/// Invariant: a key's characters in a period never pass its limit. ``charge(_:characters:period:)``
/// is one statement that adds and checks in the same row update, so concurrent requests — in one
/// process or many — are serialised by the database on that row and cannot overrun it.
public final class KeyStore: Sendable {
    /// The database.
    public let database: Database
    private let ready = Mutex(false)
    private let combiner: ChargeCombiner<ChargedRow>

    /// A store over `database` (nothing is opened yet).
    public init(database: Database) {
        self.database = database
        combiner = ChargeCombiner(add: { row, characters, requests in
            try await Self.add(database, row, characters: characters, requests: requests)
        }, read: { row in try await Self.used(database, row) })
    }

    /// Applies the migrations that are missing (once per process; again after a failure).
    /// - Throws: ``DatabaseError``.
    public func prepare() async throws {
        if ready.withLock({ $0 }) { return }
        try await Self.schema.apply(to: database)
        ready.withLock { $0 = true }
    }

    /// Makes a key; the key itself is in the answer and nowhere else.
    /// - Parameters:
    ///   - charactersPerMonth: nil for no limit.
    ///   - requestsPerMinute: nil for the server's default for keys.
    public func create(name: String, charactersPerMonth: Int?, requestsPerMinute: Int?,
                       now: Date = Date()) async throws -> (key: APIKey, secret: String) {
        try await prepare()
        let secret = KeySecret.generate()
        let key = APIKey(id: KeySecret.newIdentifier(), name: name, hint: KeySecret.hint(secret),
                         created: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
                         revoked: nil, charactersPerMonth: charactersPerMonth, requestsPerMinute: requestsPerMinute)
        try await database.execute("""
            INSERT INTO glossa_keys (id, name, secret_sha256, hint, created_at, revoked_at, characters_per_month, requests_per_minute)
            VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)
            """, [.text(key.id), .text(name), .text(KeySecret.hash(secret)), .text(key.hint),
                  .integer(Int(key.created.timeIntervalSince1970)), .integer(charactersPerMonth), .integer(requestsPerMinute)])
        return (key, secret)
    }

    /// Every key, oldest first.
    public func list() async throws -> [APIKey] {
        try await prepare()
        return try await database.execute("SELECT \(Self.columns) FROM glossa_keys ORDER BY created_at, id").map(Self.key)
    }

    /// The record of the key `secret`, revoked or not; nil when there is none (or it is malformed).
    public func find(secret: String) async throws -> APIKey? {
        guard KeySecret.isWellFormed(secret) else { return nil }
        return try await find(hash: KeySecret.hash(secret))
    }

    /// The record of the key whose SHA-256 is `hash` (``KeySecret/hash(_:)``).
    public func find(hash: String) async throws -> APIKey? {
        try await prepare()
        return try await database.execute("SELECT \(Self.columns) FROM glossa_keys WHERE secret_sha256 = $1",
                                          [.text(hash)]).first.map(Self.key)
    }

    /// The keys `reference` names: the key itself, its identifier, or its name (names may repeat).
    public func find(reference: String) async throws -> [APIKey] {
        if let key = try await find(secret: reference) { return [key] }
        return try await database.execute("SELECT \(Self.columns) FROM glossa_keys WHERE id = $1 OR name = $1 ORDER BY created_at, id",
                                          [.text(reference)]).map(Self.key)
    }

    /// Revokes the key `id` (again: no change); its record after, nil when there is none.
    public func revoke(id: String, now: Date = Date()) async throws -> APIKey? {
        try await prepare()
        try await database.execute("UPDATE glossa_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                                   [.text(id), .integer(Int(now.timeIntervalSince1970))])
        return try await database.execute("SELECT \(Self.columns) FROM glossa_keys WHERE id = $1", [.text(id)]).first.map(Self.key)
    }

    /// What ``charge(_:characters:period:)`` decided.
    public enum Charge: Sendable, Equatable {
        /// Charged; the period's total after it.
        case accepted(total: Int)
        /// Refused: it would pass the limit; the period's total, unchanged.
        case exceeded(used: Int)
    }

    /// Adds `characters` and one request to `key`'s usage in `period`, unless that would pass
    /// its monthly limit: checked and added in one statement (see the type's invariant). Charges
    /// to one key that arrive while one runs share the next statement (``ChargeCombiner``).
    public func charge(_ key: APIKey, characters: Int, period: BillingPeriod) async throws -> Charge {
        try await prepare()
        return try await combiner.charge(ChargedRow(key: key, period: period), characters: characters)
    }

    /// The row a charge updates, with the limit it is checked against (charges combine only
    /// when all three agree).
    struct ChargedRow: Hashable, Sendable {
        let key: String
        let period: String
        let limit: Int

        /// The limit of a key without one: far above any month's traffic, and still far
        /// below overflow when added to.
        static let unlimited = Int(Int64.max / 2)
    }

    /// Adds `characters` and `requests` to `row` unless its total would pass its limit: the
    /// total after, or nil (nothing added).
    private static func add(_ database: Database, _ row: ChargedRow, characters: Int, requests: Int) async throws -> Int? {
        // The first charge of a period inserts the row; this check covers it, since the insert
        // starts from zero (the statement's WHERE guards only the update).
        guard characters <= row.limit else { return nil }
        let rows = try await database.execute("""
            INSERT INTO glossa_key_usage (key_id, period, characters, requests) VALUES ($1, $2, $3, $5)
            ON CONFLICT (key_id, period) DO UPDATE
                SET characters = glossa_key_usage.characters + excluded.characters,
                    requests = glossa_key_usage.requests + excluded.requests
                WHERE glossa_key_usage.characters + excluded.characters <= $4
            RETURNING characters
            """, [.text(row.key), .text(row.period), .integer(characters), .integer(row.limit), .integer(requests)])
        return rows.first?.integer(0)
    }

    /// `row`'s characters so far.
    private static func used(_ database: Database, _ row: ChargedRow) async throws -> Int {
        try await database.execute("SELECT characters FROM glossa_key_usage WHERE key_id = $1 AND period = $2",
                                   [.text(row.key), .text(row.period)]).first?.integer(0) ?? 0
    }

    /// Takes back a charge whose request failed (nothing was translated, so nothing is billed).
    public func refund(_ key: APIKey, characters: Int, period: BillingPeriod) async throws {
        try await prepare()
        try await database.execute("""
            UPDATE glossa_key_usage SET characters = characters - $3, requests = requests - 1
            WHERE key_id = $1 AND period = $2 AND characters >= $3 AND requests >= 1
            """, [.text(key.id), .text(period.name), .integer(characters)])
    }

    /// `key`'s usage in `period`.
    public func usage(of key: APIKey, period: BillingPeriod) async throws -> KeyUsage {
        try await prepare()
        // Characters reserved by holds (``KeyMeter``) are not billed until spent.
        let row = try await database.execute("""
            SELECT u.characters - \(Self.heldCharacters), u.requests FROM glossa_key_usage u WHERE u.key_id = $1 AND u.period = $2
            """, [.text(key.id), .text(period.name)]).first
        return KeyUsage(key: key, period: period, characters: row?.integer(0) ?? 0, requests: row?.integer(1) ?? 0)
    }

    /// Every key's usage in `period`, keys oldest first.
    public func usage(period: BillingPeriod) async throws -> [KeyUsage] {
        let keys = try await list()
        let rows = try await database.execute("""
            SELECT u.key_id, u.characters - \(Self.heldCharacters), u.requests FROM glossa_key_usage u WHERE u.period = $1
            """, [.text(period.name)])
        var counts: [String: (Int, Int)] = [:]
        for row in rows { counts[row.text(0) ?? ""] = (row.integer(1) ?? 0, row.integer(2) ?? 0) }
        return keys.map { KeyUsage(key: $0, period: period, characters: counts[$0.id]?.0 ?? 0, requests: counts[$0.id]?.1 ?? 0) }
    }

    static let columns = "id, name, hint, created_at, revoked_at, characters_per_month, requests_per_minute"

    static func key(_ row: SQLRow) -> APIKey {
        APIKey(id: row.text(0) ?? "", name: row.text(1) ?? "", hint: row.text(2) ?? "",
               created: Date(timeIntervalSince1970: Double(row.integer(3) ?? 0)),
               revoked: row.integer(4).map { Date(timeIntervalSince1970: Double($0)) },
               charactersPerMonth: row.integer(5), requestsPerMinute: row.integer(6))
    }
}

extension KeyStore.ChargedRow {
    /// `key`'s row in `period` (in an extension, so the memberwise initializer stays).
    init(key: APIKey, period: BillingPeriod) {
        self.init(key: key.id, period: period.name, limit: key.charactersPerMonth ?? Self.unlimited)
    }
}
