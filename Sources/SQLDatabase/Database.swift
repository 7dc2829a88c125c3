import Synchronization

/// Which SQL a database speaks, for the few statements that differ (taking the migration lock).
public enum SQLFlavor: Sendable {
    case sqlite, postgres
}

/// A SQLite file or a PostgreSQL server, reached through a few connections on dedicated threads.
/// Statements are written once for both, with `$1`, `$2`, … parameters.
///
/// Nothing is opened until the first statement, and a failed connection is reopened by a later
/// one, so a process can start while its database is down. After a failure that means the
/// database is down, statements fail at once (``DatabaseError/isUnavailable``) for
/// ``retryInterval`` instead of each waiting on a connection attempt.
public final class Database: Sendable {
    /// Where the data is.
    public let location: DatabaseLocation
    /// Its SQL flavour.
    public let flavor: SQLFlavor
    private let threads: ConnectionThreads
    /// Until when statements fail at once, after the database was found down.
    private let downUntil = Mutex<ContinuousClock.Instant?>(nil)

    /// How long statements fail fast after the database was found down.
    public static let retryInterval: Duration = .seconds(1)

    /// Prepares `connections` connections to `location` (default: 2 for SQLite, whose writes
    /// take turns anyway; 8 for PostgreSQL, whose statements wait on the network).
    public init(_ location: DatabaseLocation, connections: Int? = nil) {
        self.location = location
        switch location {
        case .sqlite(let path):
            flavor = .sqlite
            threads = ConnectionThreads(count: connections ?? 2, name: "glossa-sqlite") { try SQLiteConnection(path: path) }
        case .postgres(let uri):
            flavor = .postgres
            threads = ConnectionThreads(count: connections ?? 8, name: "glossa-postgres") { try PostgresConnection(uri: uri) }
        }
    }

    /// Runs one statement; the rows it returns.
    /// - Throws: ``DatabaseError``.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) async throws -> [SQLRow] {
        try await run { connection in try connection.execute(sql, parameters) }
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back
    /// when it throws. `exclusive` takes the write lock at the start (SQLite `BEGIN IMMEDIATE`),
    /// so two transactions that read then write cannot interleave.
    public func transaction<T: Sendable>(exclusive: Bool = false,
                                         _ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        let begin = flavor == .sqlite && exclusive ? "BEGIN IMMEDIATE" : "BEGIN"
        return try await run { connection in
            _ = try connection.execute(begin, [])
            do {
                let result = try body(Transaction(connection: connection))
                _ = try connection.execute("COMMIT", [])
                return result
            } catch {
                if connection.isUsable { _ = try? connection.execute("ROLLBACK", []) }
                throw error
            }
        }
    }

    /// Finishes the queued statements and closes every connection.
    public func close() { threads.shutdown() }

    private func run<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        if let until = downUntil.withLock({ $0 }), ContinuousClock.now < until {
            throw DatabaseError(.unavailable, "the database \(location) is unavailable; retrying shortly")
        }
        do {
            let result = try await threads.run(body)
            downUntil.withLock { $0 = nil }
            return result
        } catch let error as DatabaseError where error.isUnavailable {
            downUntil.withLock { $0 = .now + Self.retryInterval }
            throw error
        }
    }
}

/// Statements inside ``Database/transaction(exclusive:_:)``, run on its connection.
public struct Transaction {
    let connection: any SQLConnection

    /// Runs one statement of the transaction.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) throws -> [SQLRow] {
        try connection.execute(sql, parameters)
    }
}
