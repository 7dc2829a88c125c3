/// The character encoding of a text or HTML document, so the translation is written back the
/// way the document was: UTF-8 (with its byte order mark if it had one), UTF-16 with a byte
/// order mark, or, for bytes that are not UTF-8, Windows-1252 (a superset of Latin-1, which is
/// what most old text files that are not UTF-8 are).
enum TextEncoding: Equatable {
    case utf8(bom: Bool)
    case utf16LittleEndian
    case utf16BigEndian
    case windows1252

    /// Decodes `bytes`, telling which encoding they used.
    static func decode(_ bytes: [UInt8]) -> (String, TextEncoding) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]), let text = String(validating: bytes.dropFirst(3), as: UTF8.self) {
            return (text, .utf8(bom: true))
        }
        if bytes.starts(with: [0xFF, 0xFE]) { return (utf16(bytes.dropFirst(2), littleEndian: true), .utf16LittleEndian) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (utf16(bytes.dropFirst(2), littleEndian: false), .utf16BigEndian) }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, .utf8(bom: false)) }
        return (String(String.UnicodeScalarView(bytes.map { Windows1252.scalar($0) })), .windows1252)
    }

    /// `text` in this encoding. A character Windows-1252 lacks is written as an HTML character
    /// reference in HTML and as `?` in plain text (it cannot be written otherwise).
    func encode(_ text: String, html: Bool) -> [UInt8] {
        switch self {
        case .utf8(let bom): return (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        case .utf16LittleEndian: return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case .utf16BigEndian: return [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case .windows1252:
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                if let byte = Windows1252.byte(scalar) { out.append(byte) } else if html { out += Array("&#\(scalar.value);".utf8) } else { out.append(0x3F) }
            }
            return out
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(littleEndian ? a | b << 8 : a << 8 | b)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}

/// Windows code page 1252: Latin-1 with printable characters in 0x80–0x9F. RTF's `\'hh` escapes
/// use it too (`\ansicpg1252`, by far the most common code page).
enum Windows1252 {
    /// 0x80–0x9F; 0 where the code page leaves a byte undefined (then it maps to the C1 control).
    private static let high: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
    private static let reverse: [UInt32: UInt8] = {
        var table: [UInt32: UInt8] = [:]
        for (i, value) in high.enumerated() where value != 0 { table[value] = UInt8(0x80 + i) }
        return table
    }()

    /// The character of `byte`.
    static func scalar(_ byte: UInt8) -> Unicode.Scalar {
        if byte >= 0x80, byte < 0xA0, high[Int(byte) - 0x80] != 0 { return Unicode.Scalar(high[Int(byte) - 0x80])! }
        return Unicode.Scalar(byte)
    }

    /// The byte of `scalar`, when the code page has it.
    static func byte(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.value < 0x80 || (scalar.value >= 0xA0 && scalar.value <= 0xFF) { return UInt8(scalar.value) }
        if scalar.value >= 0x80 && scalar.value < 0xA0 { return high[Int(scalar.value) - 0x80] == 0 ? UInt8(scalar.value) : nil }
        return reverse[scalar.value]
    }
}
