/// A route's path: literal segments and `{name}` segments that match any one segment
/// (`/download_file/{filename}`), or a segment's start before a literal suffix (Google v3's
/// custom methods, `/v3/projects/{project}:translateText`). The same syntax is OpenAPI's, so the
/// document shows it as is.
struct PathPattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        /// A parameter, then `suffix` (empty: the whole segment is the parameter).
        case parameter(String, suffix: String)
    }

    let segments: [Segment]
    /// The pattern as written.
    let description: String

    init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: true).map { part in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
            return .parameter(String(part[part.index(after: part.startIndex)..<close]), suffix: String(part[part.index(after: close)...]))
        }
    }

    /// Whether every segment is literal (matched by a dictionary lookup).
    var isLiteral: Bool { segments.allSatisfy { if case .literal = $0 { return true } else { return false } } }

    /// The path parameters when `path` (as sent, without query) matches, else nil. Parameters
    /// are percent-decoded; a parameter that does not decode to UTF-8 does not match.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard part == text else { return nil }
            case .parameter(let name, let suffix):
                // The value is what comes before the suffix, and is never empty.
                guard part.count > suffix.count, part.hasSuffix(suffix),
                      let value = Self.percentDecoded(part.dropLast(suffix.count)) else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }

    /// `%XX` decoded (`+` stays a plus in a path); nil when the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               utf8.prefix(2).allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
