import Foundation

/// Brings a database's schema up to date when a process starts: each migration runs once, in
/// order, in one transaction with the ones before it, and is recorded in `glossa_migrations`.
///
/// Several processes may start at once on one PostgreSQL (a cluster's replicas): the first takes
/// an advisory lock and migrates, the others wait for the lock and then find nothing to do.
/// SQLite's `BEGIN IMMEDIATE` does the same for processes sharing a file.
public struct Migrations: Sendable {
    /// One schema change: a version (1, 2, …) and its statements.
    public struct Migration: Sendable {
        public let version: Int
        public let statements: [String]

        /// Makes a migration.
        public init(version: Int, _ statements: [String]) {
            self.version = version
            self.statements = statements
        }
    }

    /// The migrations, by version.
    public let migrations: [Migration]
    /// The advisory lock's number (PostgreSQL), one per schema.
    let lockKey: Int

    /// A schema made of `migrations` (versions 1, 2, … in order); `lockKey` names its lock.
    public init(_ migrations: [Migration], lockKey: Int) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.lockKey = lockKey
    }

    /// Applies what is missing; returns the versions applied now.
    /// - Throws: ``DatabaseError``, also when the database has a version this program does not know.
    @discardableResult
    public func apply(to database: Database) async throws -> [Int] {
        let flavor = database.flavor
        let lockKey = lockKey
        let migrations = migrations
        return try await database.transaction(exclusive: true) { tx in
            if flavor == .postgres { try tx.execute("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)]) }
            try tx.execute("CREATE TABLE IF NOT EXISTS glossa_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)")
            let current = try tx.execute("SELECT COALESCE(MAX(version), 0) FROM glossa_migrations").first?.integer(0) ?? 0
            if let newest = migrations.last?.version, current > newest {
                throw DatabaseError.failed("the database schema is at version \(current), newer than this Glossa knows (\(newest)): upgrade Glossa")
            }
            var applied: [Int] = []
            for migration in migrations where migration.version > current {
                for statement in migration.statements { try tx.execute(statement) }
                try tx.execute("INSERT INTO glossa_migrations (version, applied_at) VALUES ($1, $2)",
                               [.integer(migration.version), .integer(Int(Date().timeIntervalSince1970))])
                applied.append(migration.version)
            }
            return applied
        }
    }
}
