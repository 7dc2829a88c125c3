/// Cuts an XML document into tokens that cover every byte, so that writing the tokens back
/// gives the document again byte for byte, with only the chosen text nodes changed.
///
/// Not a validating parser: it needs only where tags, text, comments and the like begin and
/// end, the qualified names of elements and their `xmlns` attributes. Malformed input does not
/// fail: what cannot be read as markup is kept as text and passed through.
struct XMLScanner {
    /// One token: its kind and its bytes' range in the input.
    struct Token: Equatable {
        enum Kind: Equatable {
            /// Character data (still escaped).
            case text
            /// `<name …>` or `<name …/>`.
            case start(name: String, selfClosing: Bool)
            /// `</name>`.
            case end(name: String)
            /// A comment, processing instruction, CDATA section or DOCTYPE: kept, never translated.
            case other
        }
        var kind: Kind
        var range: Range<Int>
    }

    /// The tokens of `bytes`, in order, covering all of them.
    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        let n = bytes.count
        while i < n {
            guard bytes[i] == 0x3C else {   // '<'
                var j = i
                while j < n && bytes[j] != 0x3C { j += 1 }
                tokens.append(Token(kind: .text, range: i..<j))
                i = j
                continue
            }
            let end = markupEnd(bytes, from: i)
            tokens.append(Token(kind: markupKind(bytes, i..<end), range: i..<end))
            i = end
        }
        return tokens
    }

    /// The end of the markup that starts with `<` at `start`: quotes in attribute values may
    /// hold `>`; comments, CDATA and processing instructions end with their own closers.
    private static func markupEnd(_ s: [UInt8], from start: Int) -> Int {
        // Elements' tags, nearly every token, go straight to the scan for `>`.
        let second = start + 1 < s.count ? s[start + 1] : 0
        if second != 0x21 && second != 0x3F { return tagEnd(s, from: start) }   // '!' and '?'
        if starts(s, start, "<!--") { return find(s, "-->", from: start + 4).map { $0 + 3 } ?? s.count }
        if starts(s, start, "<![CDATA[") { return find(s, "]]>", from: start + 9).map { $0 + 3 } ?? s.count }
        if starts(s, start, "<?") { return find(s, "?>", from: start + 2).map { $0 + 2 } ?? s.count }
        if starts(s, start, "<!") {
            // A DOCTYPE may hold an internal subset in brackets.
            var depth = 0, i = start + 2
            while i < s.count {
                if s[i] == 0x5B { depth += 1 } else if s[i] == 0x5D { depth -= 1 } else if s[i] == 0x3E && depth <= 0 { return i + 1 }
                i += 1
            }
            return s.count
        }
        return tagEnd(s, from: start)
    }

    /// The end of a tag: the first `>` outside a quoted attribute value.
    private static func tagEnd(_ s: [UInt8], from start: Int) -> Int {
        var quote: UInt8 = 0
        var i = start + 1
        while i < s.count {
            let b = s[i]
            if quote != 0 { if b == quote { quote = 0 } } else if b == 0x22 || b == 0x27 { quote = b } else if b == 0x3E { return i + 1 }
            i += 1
        }
        return s.count
    }

    private static func markupKind(_ s: [UInt8], _ range: Range<Int>) -> Token.Kind {
        let lo = range.lowerBound
        guard range.count >= 3, s[range.upperBound - 1] == 0x3E else { return .other }
        if s[lo + 1] == 0x21 || s[lo + 1] == 0x3F { return .other }   // '!' or '?'
        let closing = s[lo + 1] == 0x2F
        var i = lo + (closing ? 2 : 1)
        let nameStart = i
        while i < range.upperBound, !isNameEnd(s[i]) { i += 1 }
        guard i > nameStart else { return .other }
        let name = String(decoding: s[nameStart..<i], as: UTF8.self)
        if closing { return .end(name: name) }
        return .start(name: name, selfClosing: s[range.upperBound - 2] == 0x2F)
    }

    private static func isNameEnd(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x2F || b == 0x3E
    }

    /// The `xmlns` and `xmlns:prefix` attributes of a start tag: prefix ("" for the default) → URI.
    ///
    /// Read on bytes: it runs for every start tag of a document, most of which declare nothing,
    /// and turning each tag into a `String` to search it cost more than the rest of reading the
    /// document (callgrind, bench/bench_instructions.py's docx).
    static func namespaceDeclarations(_ s: [UInt8], _ range: Range<Int>) -> [(String, String)] {
        var out: [(String, String)] = []
        var i = range.lowerBound
        let end = range.upperBound
        while let at = find(s, xmlns, from: i, before: end) {
            var k = at + xmlns.count
            var prefix = ""
            if k < end, s[k] == 0x3A {   // ':'
                let nameStart = k + 1
                k = nameStart
                while k < end, s[k] != 0x3D, !isSpace(s[k]) { k += 1 }
                prefix = String(decoding: s[nameStart..<k], as: UTF8.self)
            }
            while k < end, isSpace(s[k]) { k += 1 }
            guard k < end, s[k] == 0x3D else { i = k; continue }   // '='
            k += 1
            while k < end, isSpace(s[k]) { k += 1 }
            guard k < end, s[k] == 0x22 || s[k] == 0x27 else { i = k; continue }
            let quote = s[k]
            let valueStart = k + 1
            var valueEnd = valueStart
            while valueEnd < end, s[valueEnd] != quote { valueEnd += 1 }
            out.append((prefix, String(decoding: s[valueStart..<valueEnd], as: UTF8.self)))
            i = min(valueEnd + 1, end)
        }
        return out
    }

    private static let xmlns = Array("xmlns".utf8)

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Where `needle` first starts in `s[from..<before]`, whole.
    private static func find(_ s: [UInt8], _ needle: [UInt8], from start: Int, before end: Int) -> Int? {
        guard end - start >= needle.count else { return nil }
        var i = start
        while i <= end - needle.count {
            if s[i] == needle[0], s[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func starts(_ s: [UInt8], _ i: Int, _ prefix: String) -> Bool {
        var k = i
        for b in prefix.utf8 {
            guard k < s.count, s[k] == b else { return false }
            k += 1
        }
        return true
    }

    private static func find(_ s: [UInt8], _ needle: String, from start: Int) -> Int? {
        find(s, Array(needle.utf8), from: start, before: s.count)
    }
}

/// XML character data ↔ text: the five predefined entities and numeric references.
enum XMLText {
    /// The text that escaped character data stands for; references Glossa cannot resolve (a
    /// DTD's own entities) are kept as written.
    static func unescape(_ bytes: ArraySlice<UInt8>) -> String {
        let raw = String(decoding: bytes, as: UTF8.self)
        guard bytes.contains(0x26) else { return raw }   // '&'; searched on bytes (see namespaceDeclarations)
        var out = ""
        var rest = Substring(raw)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let name = after[..<semi]
                if let value = resolve(name) {
                    out += value
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }

    private static func resolve(_ name: Substring) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }

    /// `text` as character data: `&`, `<` and `>` escaped.
    static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            default: out.append(b)
            }
        }
        return out
    }
}
