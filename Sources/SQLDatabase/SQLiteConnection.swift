import CSQLite
import Foundation

/// One SQLite connection in WAL mode: readers never wait for the writer, and a commit appends to
/// the log without an fsync of the database file (`synchronous=NORMAL`, durable across a process
/// crash; a power loss may drop the last commits, never corrupts). Writers from every connection
/// and process queue on SQLite's lock for up to `busy_timeout`.
final class SQLiteConnection: SQLConnection {
    private let db: OpaquePointer
    /// Prepared statements by SQL text: a statement is compiled once per connection.
    private var statements: [String: OpaquePointer] = [:]
    private(set) var isUsable = true

    /// How long a statement waits for another connection's write lock before it fails.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens (creating when absent) the file at `path`, its directory made private to the user.
    /// - Throws: ``DatabaseError`` (`.unavailable` when the file cannot be opened).
    init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        var handle: OpaquePointer?
        // NOMUTEX: a connection is confined to one thread (ConnectionThreads), so SQLite's own
        // per-connection mutex would only cost time.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw DatabaseError(.unavailable, "cannot open the SQLite database \(path): \(message)")
        }
        db = handle
        // The file holds key hashes and usage: readable by its owner only (the -wal and -shm
        // files SQLite makes beside it take the same permissions).
        chmod(path, 0o600)
        sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
        do {
            try switchToWriteAheadLog()
            _ = try execute("PRAGMA synchronous=NORMAL", [])
            _ = try execute("PRAGMA foreign_keys=ON", [])
        } catch {
            close()
            throw error
        }
    }

    /// Puts the file in WAL mode (a no-op when it is already). On a new file several connections
    /// may switch at once: each holds a read lock and wants the exclusive one, and SQLite answers
    /// all but one `SQLITE_BUSY` at once, without its busy handler, since waiting could deadlock.
    /// The loser's read lock is gone by then, so trying again (within `busy_timeout`) succeeds
    /// once the winner is done.
    private func switchToWriteAheadLog() throws {
        let deadline = Date().addingTimeInterval(Double(Self.busyTimeoutMilliseconds) / 1000)
        while true {
            let status = sqlite3_exec(db, "PRAGMA journal_mode=WAL", nil, nil, nil)
            if status == SQLITE_OK { return }
            guard status & 0xff == SQLITE_BUSY, Date() < deadline else { throw error(status) }
            usleep(5_000)
        }
    }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (i, value) in parameters.enumerated() {
            let index = Int32(i + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let n): status = sqlite3_bind_int64(statement, index, n)
            case .text(let s): status = sqlite3_bind_text(statement, index, s, -1, glossa_sqlite_transient())
            case .bytes(let b):
                // A zero-length blob is still a blob, not NULL: bind it from a one-byte buffer.
                status = b.isEmpty ? sqlite3_bind_zeroblob(statement, index, 0)
                    : b.withUnsafeBytes { sqlite3_bind_blob64(statement, index, $0.baseAddress, sqlite3_uint64($0.count), glossa_sqlite_transient()) }
            }
            guard status == SQLITE_OK else { throw error(status) }
        }
        var rows: [SQLRow] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error(status) }
            let columns = sqlite3_column_count(statement)
            rows.append(SQLRow((0..<columns).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: return .null
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    guard count > 0, let start = sqlite3_column_blob(statement, column) else { return .bytes([]) }
                    return .bytes(Array(UnsafeRawBufferPointer(start: start, count: count)))
                default: return .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                }
            }))
        }
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close_v2(db)
        isUsable = false
    }

    /// The compiled statement for `sql`, whose `$1`, `$2`, … are written `?1`, `?2`, … for SQLite
    /// (`$1` would be a *named* parameter there, numbered by first appearance).
    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        let text = Self.numberedParameters(sql)
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        statements[sql] = statement
        return statement
    }

    /// `$n` → `?n` outside quoted text.
    static func numberedParameters(_ sql: String) -> String {
        var out = ""
        var quoted = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            out.append(!quoted && character == "$" ? "?" : character)
        }
        return out
    }

    private func error(_ status: Int32) -> DatabaseError {
        let message = String(cString: sqlite3_errmsg(db))
        switch status & 0xff {
        case SQLITE_CONSTRAINT: return DatabaseError(.constraint, message)
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_READONLY,
             SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_PROTOCOL, SQLITE_PERM, SQLITE_NOMEM:
            if status & 0xff == SQLITE_NOTADB || status & 0xff == SQLITE_CANTOPEN { isUsable = false }
            return DatabaseError(.unavailable, "SQLite: \(message)")
        default: return DatabaseError(.failed, "SQLite: \(message)")
        }
    }
}
