/// HTML character references (`&eacute;`, `&#233;`, `&#xE9;`): the one table of named ones that
/// the engines' deformatters and detection both read.
public enum HTMLCharacterReferences {
    /// Decodes the reference starting with `&` at `start` in UTF-8 `bytes`: the character it stands
    /// for and the position past its `;`. Nil when there is none there (a bare `&`, an unknown
    /// name, a missing `;`, a number beyond Unicode).
    public static func decode(_ bytes: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        var i = start + 1
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "#") {
            i += 1
            let hex = i < bytes.count && (bytes[i] | 0x20) == UInt8(ascii: "x")
            if hex { i += 1 }
            let digitsStart = i
            var value: UInt32 = 0
            while i < bytes.count, let d = digit(bytes[i], hex: hex), i - digitsStart < 8 {
                value = value * (hex ? 16 : 10) + UInt32(d)
                i += 1
            }
            guard i > digitsStart, i < bytes.count, bytes[i] == UInt8(ascii: ";"), let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, i + 1)
        }
        let nameStart = i
        while i < bytes.count, i - nameStart < 10, (bytes[i] | 0x20) >= 0x61, (bytes[i] | 0x20) <= 0x7A || (bytes[i] >= 0x30 && bytes[i] <= 0x39) { i += 1 }
        guard i > nameStart, i < bytes.count, bytes[i] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        guard let value = latinLetters[name] ?? others[name], let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, i + 1)
    }

    static func digit(_ b: UInt8, hex: Bool) -> UInt8? {
        if b >= 0x30 && b <= 0x39 { return b - 0x30 }
        if hex, (b | 0x20) >= 0x61, (b | 0x20) <= 0x66 { return (b | 0x20) - 0x61 + 10 }
        return nil
    }

    /// The named Latin letters of HTML 4 (the set `apertium-deshtml`'s format file replaces),
    /// plus the Latin Extended letters HTML 4 names.
    public static let latinLetters: [String: UInt32] = {
        var table: [String: UInt32] = [
            "AElig": 0xC6, "Ccedil": 0xC7, "ETH": 0xD0, "Ntilde": 0xD1, "Oslash": 0xD8, "THORN": 0xDE,
            "szlig": 0xDF, "aelig": 0xE6, "ccedil": 0xE7, "eth": 0xF0, "ntilde": 0xF1, "oslash": 0xF8,
            "thorn": 0xFE, "Aring": 0xC5, "aring": 0xE5, "Atilde": 0xC3, "atilde": 0xE3, "Otilde": 0xD5,
            "otilde": 0xF5, "Yacute": 0xDD, "yacute": 0xFD, "yuml": 0xFF, "OElig": 0x152, "oelig": 0x153,
            "Scaron": 0x160, "scaron": 0x161, "Yuml": 0x178,
        ]
        // Vowels with grave, acute, circumflex and diaeresis follow one layout in Latin-1.
        let upper: [(Character, UInt32)] = [("A", 0xC0), ("E", 0xC8), ("I", 0xCC), ("O", 0xD2), ("U", 0xD9)]
        for (letter, base) in upper {
            // A and O have a tilde between circumflex and diaeresis, so their diaeresis is one on.
            let umlaut: UInt32 = letter == "O" ? base + 4 : letter == "A" ? base + 4 : base + 3
            table["\(letter)grave"] = base
            table["\(letter)acute"] = base + 1
            table["\(letter)circ"] = base + 2
            table["\(letter)uml"] = umlaut
            let lower = String(letter).lowercased()
            table["\(lower)grave"] = base + 0x20
            table["\(lower)acute"] = base + 0x21
            table["\(lower)circ"] = base + 0x22
            table["\(lower)uml"] = umlaut + 0x20
        }
        return table
    }()

    /// Markup characters, spaces and the punctuation pages most often write by name.
    static let others: [String: UInt32] = [
        "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27, "nbsp": 0xA0, "shy": 0xAD,
        "copy": 0xA9, "reg": 0xAE, "trade": 0x2122, "euro": 0x20AC, "pound": 0xA3, "deg": 0xB0, "middot": 0xB7,
        "laquo": 0xAB, "raquo": 0xBB, "lsquo": 0x2018, "rsquo": 0x2019, "ldquo": 0x201C, "rdquo": 0x201D,
        "bdquo": 0x201E, "ndash": 0x2013, "mdash": 0x2014, "hellip": 0x2026, "iexcl": 0xA1, "iquest": 0xBF,
    ]

    /// `text` with `&`, `<` and `>` written as references, to stand as text in HTML.
    public static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}
