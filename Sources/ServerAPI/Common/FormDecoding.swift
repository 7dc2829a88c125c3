/// `application/x-www-form-urlencoded` and query strings, decoded by one set of rules:
/// `&`-separated `name=value`, `+` is a space, `%XX` is a byte, and the result must be UTF-8.
enum FormDecoding {
    /// The pairs in order; a name may repeat. A `%` not followed by two hex digits is kept as it
    /// is (as browsers and Python's `parse_qsl` do).
    /// - Throws: ``APIError/malformedBody(_:_:)`` naming the parameter whose bytes are not UTF-8.
    static func parse<C: Collection<UInt8>>(_ bytes: C, what: String) throws(APIError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for part in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: UInt8(ascii: "="))
            let rawName = equals.map { part[part.startIndex..<$0] } ?? part[...]
            let rawValue = equals.map { part[part.index(after: $0)...] } ?? part[part.endIndex...]
            let name = try decode(rawName, what: what, field: nil)
            pairs.append((name, try decode(rawValue, what: what, field: name)))
        }
        return pairs
    }

    private static func decode<C: Collection<UInt8>>(_ bytes: C, what: String, field: String?) throws(APIError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"),
                      let h = bytes.index(i, offsetBy: 1, limitedBy: bytes.endIndex), h != bytes.endIndex,
                      let l = bytes.index(h, offsetBy: 1, limitedBy: bytes.endIndex), l != bytes.endIndex,
                      let high = hex(bytes[h]), let low = hex(bytes[l]) {
                out.append(high << 4 | low)
                i = l
            } else {
                out.append(byte)
            }
            i = bytes.index(after: i)
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw .malformedBody(.encoding, "Invalid UTF-8 in the \(what)\(field.map { " (parameter '\($0)')" } ?? ""): text must be UTF-8, percent-encoded.")
        }
        return text
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
