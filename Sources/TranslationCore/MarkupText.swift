/// The words a reader sees in a text: what language detection is given.
///
/// Markup is no language. A detector handed `<p class="note">The <b>red</b> house</p>` scores the
/// tag and attribute names too (and `&nbsp;` reads as a word), so short HTML was misdetected or
/// refused. ``content(of:format:)`` keeps only what a browser would show.
public enum MarkupText {
    /// The visible text of `text` read as `format`. Plain text comes back unchanged. For HTML
    /// (and XML, which every protocol here handles as HTML): tags with their attributes,
    /// comments, processing instructions and doctypes are left out, and so are the bodies of
    /// `<script>` and `<style>`; CDATA keeps its content; character references are decoded
    /// (`&eacute;` → `é`, `&#233;` → `é`, `&nbsp;` → a space); a tag that separates words
    /// (`<p>`, `<br>`, `<td>`, any tag not in ``inlineTags``) becomes a space, an inline one
    /// (`<b>`, `<a>`, `<span>`) nothing, so `wo<b>rd</b>` stays one word.
    public static func content(of text: String, format: TextFormat) -> String {
        guard format == .html, text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return text
        }
        var reader = Reader(bytes: Array(text.utf8))
        return reader.visibleText()
    }

    /// Elements that sit inside a word or a sentence without separating words.
    public static let inlineTags: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "mark", "q", "s",
        "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    ]

    /// Elements whose content is not text a reader sees.
    static let hiddenContentTags: Set<String> = ["script", "style"]
}

extension MarkupText {
    /// One pass over the UTF-8 bytes; markup delimiters are ASCII, so any byte ≥ 0x80 is text.
    struct Reader {
        let bytes: [UInt8]
        var i = 0
        var out: [UInt8] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            out.reserveCapacity(bytes.count)
        }

        mutating func visibleText() -> String {
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "<"): readMarkup()
                case UInt8(ascii: "&"): readReference()
                default:
                    out.append(bytes[i])
                    i += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        func starts(with literal: String, at position: Int) -> Bool {
            let l = Array(literal.utf8)
            guard position + l.count <= bytes.count else { return false }
            for k in 0..<l.count where (bytes[position + k] | 0x20) != (l[k] | 0x20) { return false }
            return true
        }

        /// The position just past the first `terminator` at or after `position`, or the end.
        func after(_ terminator: String, from position: Int) -> Int {
            let t = Array(terminator.utf8)
            var k = position
            while k + t.count <= bytes.count {
                if starts(with: terminator, at: k) { return k + t.count }
                k += 1
            }
            return bytes.count
        }

        mutating func readMarkup() {
            if starts(with: "<!--", at: i) {
                i = after("-->", from: i + 4)
                out.append(0x20)
            } else if starts(with: "<![CDATA[", at: i) {
                let end = after("]]>", from: i + 9)
                let contentEnd = end == bytes.count && !starts(with: "]]>", at: max(i, end - 3)) ? end : end - 3
                out.append(contentsOf: bytes[(i + 9)..<max(i + 9, contentEnd)])
                i = end
            } else if starts(with: "<!", at: i) || starts(with: "<?", at: i) {
                i = after(">", from: i + 2)
                out.append(0x20)
            } else if let (name, closing, end) = tag(at: i) {
                i = end
                if !closing, MarkupText.hiddenContentTags.contains(name) {
                    // The body of a script or style runs to its closing tag, whatever it holds.
                    i = after("</\(name)", from: i)
                    i = after(">", from: i)
                }
                if !MarkupText.inlineTags.contains(name) { out.append(0x20) }
            } else {
                // A `<` that opens no tag (`a < b`) is text.
                out.append(bytes[i])
                i += 1
            }
        }

        /// A start or end tag at `position`: its lower-cased name, whether it closes, and the
        /// position past its `>` (quoted attribute values may hold `>`). Nil when `<` is text.
        func tag(at position: Int) -> (String, Bool, Int)? {
            var k = position + 1
            let closing = k < bytes.count && bytes[k] == UInt8(ascii: "/")
            if closing { k += 1 }
            let nameStart = k
            while k < bytes.count, Self.isNameByte(bytes[k]) { k += 1 }
            guard k > nameStart, Self.isLetter(bytes[nameStart]) else { return nil }
            let name = String(decoding: bytes[nameStart..<k], as: UTF8.self).lowercased()
            var quote: UInt8?
            while k < bytes.count {
                let b = bytes[k]
                k += 1
                if let q = quote {
                    if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ">") {
                    break
                }
            }
            return (name, closing, k)
        }

        mutating func readReference() {
            if let (scalar, end) = HTMLCharacterReferences.decode(bytes, at: i) {
                // A no-break space separates words like a space.
                out.append(contentsOf: Array(String(scalar.value == 0xA0 ? " " : Character(scalar)).utf8))
                i = end
            } else {
                out.append(bytes[i])
                i += 1
            }
        }

        static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        static func isNameByte(_ b: UInt8) -> Bool {
            isLetter(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: ":") || b == UInt8(ascii: "_")
        }
    }
}
