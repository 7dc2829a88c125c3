import CLibPQ
import Foundation

/// One PostgreSQL connection through libpq. Statements are prepared once per connection
/// (`PQprepare`), then run with text parameters (`PQexecPrepared`); libpq blocks, which is why
/// every connection lives on a thread of its own (``ConnectionThreads``).
final class PostgresConnection: SQLConnection {
    private let conn: OpaquePointer
    /// Prepared statement names by SQL text.
    private var statements: [String: String] = [:]
    private var broken = false

    /// Seconds libpq waits for the server to answer a connection attempt, unless the URI says otherwise.
    static let connectTimeoutSeconds = 3

    /// Connects to `uri`.
    /// - Throws: ``DatabaseError`` `.unavailable` when the server cannot be reached or refuses.
    init(uri: String) throws {
        // Keywords are applied in order and `dbname` is expanded as a URI, so what the URI sets
        // (its own connect_timeout, application_name) overrides these defaults.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = [String(Self.connectTimeoutSeconds), "glossa", uri]
        let connection: OpaquePointer? = withCStrings(keywords) { k in
            withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let connection else { throw DatabaseError(.unavailable, "PostgreSQL: out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.firstLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw DatabaseError(.unavailable, "cannot connect to PostgreSQL: \(message)")
        }
        conn = connection
        // Notices (a table that already exists) would go to stderr: keep them quiet.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    var isUsable: Bool { !broken && PQstatus(conn) == CONNECTION_OK }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLRow] {
        let name = try prepared(sql, count: parameters.count)
        // Numbers and text go in PostgreSQL's text format, bytes in its binary format (a BYTEA
        // as it is, without escaping); every parameter is a copy freed after the call.
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { value in
            switch value {
            case .null: return nil
            case .integer(let n): return strdup(String(n))
            case .text(let s): return strdup(s)
            case .bytes(let b):
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, b.count))
                b.withUnsafeBytes { UnsafeMutableRawPointer(copy).copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(copy), byteCount: $0.count) }
                return copy
            }
        }
        defer {
            for (value, copy) in zip(parameters, copies) {
                if case .bytes = value { copy?.deallocate() } else { free(copy) }
            }
        }
        let lengths: [Int32] = parameters.map { if case .bytes(let b) = $0 { Int32(b.count) } else { 0 } }
        let formats: [Int32] = parameters.map { if case .bytes = $0 { 1 } else { 0 } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        let result = pointers.withUnsafeBufferPointer { values in
            PQexecPrepared(conn, name, Int32(parameters.count), values.baseAddress, lengths, formats, 0)
        }
        defer { PQclear(result) }
        try check(result)
        var rows: [SQLRow] = []
        let count = PQntuples(result), fields = PQnfields(result)
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append(SQLRow((0..<fields).map { field in
                if PQgetisnull(result, row, field) == 1 { return .null }
                let text = String(cString: PQgetvalue(result, row, field))
                // int8, int4, int2: whole numbers; bytea (17): bytes, from its hex text form
                // (`\x` and two digits a byte, PostgreSQL's default bytea_output); everything
                // else as its text.
                let type = PQftype(result, field)
                if [20, 23, 21].contains(type), let n = Int64(text) { return .integer(n) }
                if type == 17, let bytes = Self.hexBytes(text) { return .bytes(bytes) }
                return .text(text)
            }))
        }
        return rows
    }

    func close() {
        PQfinish(conn)
        broken = true
    }

    private func prepared(_ sql: String, count: Int) throws -> String {
        if let name = statements[sql] { return name }
        let name = "glossa_\(statements.count + 1)"
        let result = PQprepare(conn, name, sql, Int32(count), nil)
        defer { PQclear(result) }
        try check(result)
        statements[sql] = name
        return name
    }

    /// Throws for a failed result: SQLSTATE class 23 is a constraint, classes 08 (connection),
    /// 53 (resources), 57 (operator intervention: shutdown) and a broken connection mean the
    /// database is down for now.
    private func check(_ result: OpaquePointer?) throws {
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return }
        let message = Self.firstLine(result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(conn))
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        if PQstatus(conn) != CONNECTION_OK || result == nil || status == PGRES_FATAL_ERROR && state.isEmpty {
            broken = true
            throw DatabaseError(.unavailable, "PostgreSQL connection lost: \(message)")
        }
        switch state.prefix(2) {
        case "23": throw DatabaseError(.constraint, "PostgreSQL: \(message)")
        case "08", "53", "57":
            broken = true
            throw DatabaseError(.unavailable, "PostgreSQL: \(message)")
        default: throw DatabaseError(.failed, "PostgreSQL: \(message) (SQLSTATE \(state))")
        }
    }

    /// The bytes of a bytea's hex form `\x0aff…`; nil for any other form.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        func digit(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2 - 1)
        var i = 2
        while i < utf8.count {
            guard let high = digit(utf8[i]), let low = digit(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }

    private static func firstLine(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        return String(cString: text).split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
}

/// `body` with `strings` as a NULL-terminated array of C strings (libpq's keyword arrays).
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
