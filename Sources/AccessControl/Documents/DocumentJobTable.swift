import Foundation
import SQLDatabase

/// Document jobs in the key store's database (SQLite, or the PostgreSQL a cluster's replicas
/// share): the replica that translates a document writes its row, and a status poll or a
/// download that reaches any replica reads it.
///
/// Invariant: a row is written whole (its state with the document or message that goes with it)
/// in one statement, so a reader never sees a finished job without its document.
public final class DocumentJobTable: Sendable {
    /// A job as stored.
    public struct Row: Sendable, Equatable {
        /// What it is doing.
        public enum State: String, Sendable { case translating, done, failed }

        public var secret: String
        public var name: String
        public var state: State
        /// Why it failed (`failed`).
        public var message: String?
        /// The translated document's format name and bytes, and the characters translated (`done`).
        public var format: String?
        public var document: [UInt8]?
        public var characters: Int?
        public var started: Date
        public var finished: Date?

        /// A row.
        public init(secret: String, name: String, state: State, message: String? = nil, format: String? = nil,
                    document: [UInt8]? = nil, characters: Int? = nil, started: Date, finished: Date? = nil) {
            self.secret = secret
            self.name = name
            self.state = state
            self.message = message
            self.format = format
            self.document = document
            self.characters = characters
            self.started = started
            self.finished = finished
        }
    }

    /// The database.
    public let database: Database

    /// A table over `database` (nothing is opened yet).
    public init(database: Database) { self.database = database }

    /// Brings the schema up to date (the key store's migrations, which include this table).
    public func prepare() async throws {
        try await KeyStore.schema.apply(to: database)
    }

    /// Writes job `id` (a new one, or its new state).
    public func put(_ id: String, _ row: Row) async throws {
        try await database.execute("""
            INSERT INTO glossa_document_jobs (id, secret, name, state, message, format, characters, document, started_at, finished_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            ON CONFLICT (id) DO UPDATE SET state = excluded.state, message = excluded.message, format = excluded.format,
                characters = excluded.characters, document = excluded.document, finished_at = excluded.finished_at
            """, [.text(id), .text(row.secret), .text(row.name), .text(row.state.rawValue), .text(row.message), .text(row.format),
                  .integer(row.characters), row.document.map { .bytes($0) } ?? .null,
                  .integer(Self.millis(row.started)), .integer(row.finished.map(Self.millis))])
    }

    /// Job `id`; nil when there is none.
    public func get(_ id: String) async throws -> Row? {
        guard let r = try await database.execute("""
            SELECT secret, name, state, message, format, characters, document, started_at, finished_at
            FROM glossa_document_jobs WHERE id = $1
            """, [.text(id)]).first, let state = Row.State(rawValue: r.text(2) ?? "") else { return nil }
        return Row(secret: r.text(0) ?? "", name: r.text(1) ?? "", state: state, message: r.text(3), format: r.text(4),
                   document: r.bytes(6), characters: r.integer(5), started: Self.date(r.integer(7) ?? 0),
                   finished: r.integer(8).map(Self.date))
    }

    /// Removes job `id`.
    public func remove(_ id: String) async throws {
        try await database.execute("DELETE FROM glossa_document_jobs WHERE id = $1", [.text(id)])
    }

    /// Removes finished jobs older than `finishedBefore` and jobs still translating since before
    /// `startedBefore` (their replica stopped: nobody will finish them), then the oldest finished
    /// jobs while the documents kept take more than `maxBytes`.
    public func expire(finishedBefore: Date, startedBefore: Date, maxBytes: Int) async throws {
        try await database.execute("DELETE FROM glossa_document_jobs WHERE finished_at < $1 OR (finished_at IS NULL AND started_at < $2)",
                                   [.integer(Self.millis(finishedBefore)), .integer(Self.millis(startedBefore))])
        let sizes = try await database.execute("""
            SELECT id, COALESCE(LENGTH(document), 0) FROM glossa_document_jobs WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, id
            """)
        var kept = 0
        for row in sizes {
            kept += row.integer(1) ?? 0
            if kept > maxBytes, let id = row.text(0) { try await remove(id) }
        }
    }

    private static func millis(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    private static func date(_ millis: Int) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}
