/// A value bound to a statement or read from a row. Only what the stores need: whole numbers
/// (64-bit), text, bytes and NULL, which SQLite (INTEGER, TEXT, BLOB) and PostgreSQL (BIGINT,
/// TEXT, BYTEA) both hold without conversion.
public enum SQLValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case text(String)
    /// Bytes as they are (a BLOB, a BYTEA): a translated document, never read as text.
    case bytes([UInt8])

    /// An optional whole number: NULL when nil.
    public static func integer(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }

    /// An optional text: NULL when nil.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }

    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let n): return String(n)
        case .text(let s): return "'\(s)'"
        case .bytes(let b): return "<\(b.count) bytes>"
        }
    }
}

/// One result row, its columns in the order the statement selected them.
public struct SQLRow: Sendable, Equatable {
    /// The columns.
    public var values: [SQLValue]

    /// Makes a row.
    public init(_ values: [SQLValue]) { self.values = values }

    /// Column `index` as a whole number; nil when NULL (or not a number).
    public func integer(_ index: Int) -> Int? {
        guard values.indices.contains(index) else { return nil }
        switch values[index] {
        case .integer(let n): return Int(n)
        case .text(let s): return Int(s)
        case .null, .bytes: return nil
        }
    }

    /// Column `index` as text; nil when NULL.
    public func text(_ index: Int) -> String? {
        guard values.indices.contains(index) else { return nil }
        switch values[index] {
        case .text(let s): return s
        case .integer(let n): return String(n)
        case .null, .bytes: return nil
        }
    }

    /// Column `index` as bytes; nil when NULL or not bytes.
    public func bytes(_ index: Int) -> [UInt8]? {
        guard values.indices.contains(index), case .bytes(let b) = values[index] else { return nil }
        return b
    }
}
