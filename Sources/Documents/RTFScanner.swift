/// The tokens of an RTF document, covering every byte (see ``RTFDocument``).
struct RTFToken: Equatable {
    enum Kind: Equatable {
        case groupOpen
        case groupClose
        /// `\word` or `\wordN`; `delimited` when a space after it was part of it (consumed).
        case controlWord(String, Int?, delimited: Bool)
        /// `\x` for a non-letter x (`\~`, `\*`, `\{`); `\'hh` is ``hexCharacter``.
        case controlSymbol(UInt8)
        /// `\'hh`: one byte of the document's code page.
        case hexCharacter(UInt8)
        /// A plain byte of text.
        case text(UInt8)
        /// CR, LF, or the raw bytes after `\binN`: never text.
        case ignorable
    }
    var kind: Kind
    var range: Range<Int>
}

enum RTFScanner {
    static func tokens(_ s: [UInt8]) -> [RTFToken] {
        var tokens: [RTFToken] = []
        tokens.reserveCapacity(s.count / 2)
        var i = 0
        while i < s.count {
            let b = s[i]
            switch b {
            case 0x7B: tokens.append(RTFToken(kind: .groupOpen, range: i..<(i + 1))); i += 1
            case 0x7D: tokens.append(RTFToken(kind: .groupClose, range: i..<(i + 1))); i += 1
            case 0x0D, 0x0A: tokens.append(RTFToken(kind: .ignorable, range: i..<(i + 1))); i += 1
            case 0x5C:
                let start = i
                i += 1
                guard i < s.count else { tokens.append(RTFToken(kind: .text(b), range: start..<i)); break }
                if isLetter(s[i]) {
                    let nameStart = i
                    while i < s.count, isLetter(s[i]) { i += 1 }
                    let name = String(decoding: s[nameStart..<i], as: UTF8.self)
                    var parameter: Int?
                    let numberStart = i
                    if i < s.count, s[i] == 0x2D || isDigit(s[i]) {
                        i += 1
                        while i < s.count, isDigit(s[i]) { i += 1 }
                        parameter = Int(String(decoding: s[numberStart..<i], as: UTF8.self))
                    }
                    var delimited = false
                    if i < s.count, s[i] == 0x20 { i += 1; delimited = true }
                    tokens.append(RTFToken(kind: .controlWord(name, parameter, delimited: delimited), range: start..<i))
                    if name == "bin", let count = parameter, count > 0 {
                        // Raw binary data: exactly `count` bytes, whatever they are.
                        let end = min(s.count, i + count)
                        tokens.append(RTFToken(kind: .ignorable, range: i..<end))
                        i = end
                    }
                } else if s[i] == 0x27, i + 2 < s.count, let hi = hex(s[i + 1]), let lo = hex(s[i + 2]) {
                    i += 3
                    tokens.append(RTFToken(kind: .hexCharacter(hi << 4 | lo), range: start..<i))
                } else {
                    let symbol = s[i]
                    i += 1
                    tokens.append(RTFToken(kind: .controlSymbol(symbol), range: start..<i))
                }
            default:
                tokens.append(RTFToken(kind: .text(b), range: i..<(i + 1)))
                i += 1
            }
        }
        return tokens
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
