import Foundation

/// Where the data lives: a SQLite file (the default, nothing to set up) or a PostgreSQL server
/// (several Glossa processes sharing it).
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite database file.
    case sqlite(path: String)
    /// A PostgreSQL connection URI (`postgres://user:password@host:5432/glossa`), as libpq takes it.
    case postgres(uri: String)

    /// Reads `postgres://…` or `postgresql://…` (PostgreSQL), `sqlite:PATH` or a plain file path (SQLite).
    /// - Throws: ``DatabaseError`` for an empty text or another scheme.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            self = .postgres(uri: trimmed)
        } else if lower.hasPrefix("sqlite://") {
            // sqlite:///var/lib/glossa.db: the path after the (empty) authority.
            let path = String(trimmed.dropFirst("sqlite://".count))
            guard !path.isEmpty else { throw DatabaseError.failed("sqlite:// needs a file path (sqlite:///var/lib/glossa/glossa.db)") }
            self = .sqlite(path: path)
        } else if lower.hasPrefix("sqlite:") {
            let path = String(trimmed.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw DatabaseError.failed("sqlite: needs a file path (sqlite:glossa.db)") }
            self = .sqlite(path: path)
        } else if trimmed.isEmpty {
            throw DatabaseError.failed("the database location is empty: give a file path or postgres://host/dbname")
        } else if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter }),
                  trimmed[trimmed.index(after: colon)...].hasPrefix("//") {
            throw DatabaseError.failed("unsupported database URL scheme '\(trimmed[..<colon])': use postgres://… or a SQLite file path")
        } else {
            self = .sqlite(path: trimmed)
        }
    }

    /// `$XDG_DATA_HOME/glossa/glossa.db`, else `~/.local/share/glossa/glossa.db`: where a SQLite
    /// store lives when no location is given (the XDG Base Directory default for user data).
    public static func defaultLocation(environment: [String: String]) -> DatabaseLocation {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return .sqlite(path: data + "/glossa/glossa.db")
    }

    /// The location for logs and messages, with any password replaced by `***`.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let uri): return Self.redacted(uri)
        }
    }

    /// `postgres://user:***@host/db`, and `password=***` in a query string.
    static func redacted(_ uri: String) -> String {
        var out = uri
        if let scheme = out.range(of: "://"), let at = out[scheme.upperBound...].firstIndex(of: "@"),
           let colon = out[scheme.upperBound..<at].firstIndex(of: ":") {
            out.replaceSubrange(out.index(after: colon)..<at, with: "***")
        }
        if let range = out.range(of: "password=", options: .caseInsensitive) {
            let end = out[range.upperBound...].firstIndex(of: "&") ?? out.endIndex
            out.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return out
    }
}
