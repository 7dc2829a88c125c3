import TranslationCore

/// HTML character references as `apertium-deshtml` recognises them:
/// `&name;`, `&#x1F;` (one to four hex digits) and `&#123;` (one to eight digits).
enum HTMLEntities {
    /// A reference found in the input: where it ends, and the letter it stands for when Glossa
    /// decodes it (letters only; markup characters such as `&lt;` stay entities).
    struct Match: Equatable {
        var end: Int
        var letter: String?
    }

    /// Matches a reference starting with `&` at `start`.
    static func match(_ s: [UInt8], at start: Int) -> Match? {
        var i = start + 1
        guard i < s.count else { return nil }
        var scalar: Unicode.Scalar?
        if s[i] == 0x23 { // '#'
            i += 1
            let hex = i < s.count && (s[i] | 0x20) == 0x78 // 'x'
            if hex { i += 1 }
            let digitsStart = i
            while i < s.count, let _ = digit(s[i], hex: hex) { i += 1 }
            let count = i - digitsStart
            guard count >= 1, count <= (hex ? 4 : 8), i < s.count, s[i] == Byte.semicolon else { return nil }
            let value = s[digitsStart..<i].reduce(UInt32(0)) { $0 &* (hex ? 16 : 10) &+ UInt32(digit($1, hex: hex)!) }
            scalar = Unicode.Scalar(value)
        } else {
            let nameStart = i
            while i < s.count, (s[i] | 0x20) >= 0x61, (s[i] | 0x20) <= 0x7A { i += 1 }
            guard i > nameStart, i < s.count, s[i] == Byte.semicolon else { return nil }
            scalar = latinLetters[String(decoding: s[nameStart..<i], as: UTF8.self)].flatMap(Unicode.Scalar.init)
        }
        let end = i + 1
        // Only letters beyond ASCII are decoded (deshtml's own replacement set is the Latin-1
        // letters); `&#x41;`, `&amp;`, `&nbsp;` stay as they were, like deshtml keeps them.
        guard let scalar, scalar.value >= 0xC0, scalar.properties.isAlphabetic else { return Match(end: end, letter: nil) }
        return Match(end: end, letter: String(Character(scalar)))
    }

    private static func digit(_ b: UInt8, hex: Bool) -> UInt8? {
        if b >= 0x30 && b <= 0x39 { return b - 0x30 }
        if hex, (b | 0x20) >= 0x61, (b | 0x20) <= 0x66 { return (b | 0x20) - 0x61 + 10 }
        return nil
    }

    /// The named Latin letters deshtml replaces: the table both deformatting and detection read.
    static var latinLetters: [String: UInt32] { HTMLCharacterReferences.latinLetters }
}
