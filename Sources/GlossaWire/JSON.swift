import Foundation

/// A JSON value with ordered object members, so every wire format is written byte-for-byte as
/// its reference shows it (key order, escaping), which `JSONEncoder` does not promise.
///
/// Shared by the server (which writes every protocol's bodies with it) and the SDK's wire types
/// (``GoogleV2Wire``), so a shape is spelled once and both sides read the same definition.
public enum JSON: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// An integer, written without a fraction.
    case int(Int)
    /// A number, written in its shortest round-tripping form.
    case double(Double)
    /// A string.
    case string(String)
    /// A list, in order.
    case array([JSON])
    /// Members in the order written.
    case object([(String, JSON)])

    /// How to write: compact or indented, whether `</` becomes `<\/` (APy does, so a JSON
    /// body can sit inside an HTML `<script>`), and Python's conventions (LibreTranslate is Flask:
    /// keys sorted, floats always with a fraction).
    public struct Style: Sendable {
        /// Two-space indentation and `": "` separators (Google's default `prettyPrint`).
        public var pretty = false
        /// Escape `</` as `<\/`.
        public var escapeClosingTags = false
        /// Object members sorted by key (Flask's `jsonify` sorts them). Default: written order.
        public var sortedKeys = false
        /// A ``JSON/double(_:)`` with an integral value is written `90.0`, as Python writes a
        /// float, instead of `90`. Default: false.
        public var floatsWithFraction = false

        /// Compact, nothing extra escaped, members in written order.
        public init(pretty: Bool = false, escapeClosingTags: Bool = false, sortedKeys: Bool = false,
                    floatsWithFraction: Bool = false) {
            self.pretty = pretty
            self.escapeClosingTags = escapeClosingTags
            self.sortedKeys = sortedKeys
            self.floatsWithFraction = floatsWithFraction
        }
    }

    /// The value as UTF-8 JSON text; non-ASCII characters are written as they are.
    public func serialized(_ style: Style = Style()) -> String {
        var out = ""
        write(into: &out, style: style, indent: 0)
        return out
    }

    /// A member of an object; nil for other values or a missing key.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    private func write(into out: inout String, style: Style, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            let text = JSON.number(d)
            out += style.floatsWithFraction && d.isFinite && !text.contains(where: { $0 == "." || $0 == "e" }) ? text + ".0" : text
        case .string(let s): JSON.quote(s, into: &out, escapeClosingTags: style.escapeClosingTags)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if style.pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                item.write(into: &out, style: style, indent: indent + 1)
            }
            if style.pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let written):
            if written.isEmpty { out += "{}"; return }
            let members = style.sortedKeys ? written.sorted { $0.0 < $1.0 } : written
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                if style.pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                JSON.quote(key, into: &out, escapeClosingTags: style.escapeClosingTags)
                out += style.pretty ? ": " : ":"
                value.write(into: &out, style: style, indent: indent + 1)
            }
            if style.pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// Finite numbers as the shortest text that reads back the same; integers without `.0`.
    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    private static func quote(_ s: String, into out: inout String, escapeClosingTags: Bool) {
        out += "\""
        var previous: Unicode.Scalar = " "
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/" where escapeClosingTags && previous == "<": out += "\\/"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                // U+2028/9 are valid JSON but break JavaScript (JSONP); escape them too.
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
            previous = scalar
        }
        out += "\""
    }
}

extension JSON: Decodable {
    /// Decodes any JSON value (object member order is not kept: no request needs it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let i = try? container.decode(Int.self) { self = .int(i) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([JSON].self) { self = .array(a) }
        else { self = .object(try container.decode([String: JSON].self).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }
    }

    /// Parses UTF-8 JSON text.
    public static func parse(_ bytes: [UInt8]) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: Data(bytes))
    }
}

extension JSON {
    /// Structural equality; object members compare in order.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}
