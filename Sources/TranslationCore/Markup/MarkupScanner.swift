/// The markup rules that Debian's `apertium-deshtml` follows, shared by every engine that reads
/// HTML: which tags end a sentence, which elements keep their whole body untranslated, and where
/// a piece of markup ends. (Apertium's deformatter and the neural engine's segmenter both read
/// markup through this, so both leave the same things alone.)
public enum MarkupScanner {
    /// Tags that end a sentence, as in apertium's `html-format.xml`.
    public static let sentenceTags: Set<String> = [
        "br", "hr", "p", "li", "ul", "ol", "tr", "td", "th", "title", "div", "option",
        "h1", "h2", "h3", "h4", "h5", "h6",
    ]

    /// Elements whose whole body is kept verbatim: code (deshtml's `script`, `style` and
    /// `apertium-notrans`, and `code`, which deshtml would translate), and any element marked
    /// `translate="no"` or `class="notranslate"` (how a page tells Google Translate to leave it).
    public static let opaqueElements: Set<String> = ["script", "style", "apertium-notrans", "code"]

    /// Where the markup starting with `<` at `start` ends, and whether it ends a sentence.
    /// A `<` that starts no markup is a blank of its own, as in deshtml.
    public static func markupEnd(_ s: [UInt8], from start: Int, markup: MarkupOptions = MarkupOptions()) -> (index: Int, endsSentence: Bool) {
        if starts(s, at: start, with: "<!--") {
            let close = find(s, "-->", from: start + 4)
            return (close.map { $0 + 3 } ?? s.count, false)
        }
        let name = tagName(s, from: start + 1)
        guard let name else { return (start + 1, false) }
        guard let close = s[(start + 1)...].firstIndex(of: UInt8(ascii: ">")) else { return (start + 1, false) }
        let lowered = name.name.lowercased()
        // The tag name must end the name: `<p>` or `<p class…>`, not `<pre>`.
        let nameEnds = name.end < s.count && (s[name.end] == UInt8(ascii: ">") || s[name.end] == UInt8(ascii: " "))
        if !name.closing, !name.bang, nameEnds,
           opaqueElements.contains(lowered) || markup.ignoredElements.contains(lowered) || marksNoTranslate(s[start...close]) {
            // The body runs to the matching `</name>`; an unclosed element runs to the end.
            return (elementEnd(s, name: lowered, bodyFrom: close + 1), false)
        }
        return (close + 1, !name.bang && nameEnds && markup.endsSentence(lowered, isBlock: sentenceTags.contains(lowered)))
    }

    /// Whether a start tag carries `translate="no"` or the class `notranslate`.
    static func marksNoTranslate(_ tag: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: tag, as: UTF8.self).lowercased()
        for form in ["translate=\"no\"", "translate='no'", "translate=no "] where text.contains(form) { return true }
        if text.hasSuffix("translate=no>") || text.hasSuffix("translate=no/>") { return true }
        guard let classStart = text.range(of: "class=") else { return false }
        let rest = text[classStart.upperBound...]
        let value: Substring
        if let quote = rest.first, quote == "\"" || quote == "'" {
            value = rest.dropFirst().prefix { $0 != quote }
        } else {
            value = rest.prefix { $0 != " " && $0 != ">" }
        }
        return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains("notranslate")
    }

    /// The index after the `</name>` that closes an element whose body starts at `bodyFrom`,
    /// counting nested elements of the same name; the end of the input when it is not closed.
    /// Script and style bodies are raw text, in which nothing nests.
    static func elementEnd(_ s: [UInt8], name: String, bodyFrom: Int) -> Int {
        let raw = name == "script" || name == "style"
        var depth = 1
        var i = bodyFrom
        while i < s.count {
            guard s[i] == UInt8(ascii: "<"), let tag = tagName(s, from: i + 1), tag.name.lowercased() == name,
                  tag.end >= s.count || !isLetter(s[tag.end]) else { i += 1; continue }
            let close = s[i...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? s.count
            if tag.closing {
                depth -= 1
                if depth == 0 { return close }
            } else if !raw, !(close >= 2 && s[close - 2] == UInt8(ascii: "/")) {
                depth += 1
            }
            i = close
        }
        return s.count
    }

    /// The tag name after `<` (or `</`, `<!`, `<?`), when a letter starts it.
    private static func tagName(_ s: [UInt8], from index: Int) -> (name: String, end: Int, closing: Bool, bang: Bool)? {
        var i = index
        var closing = false, bang = false
        if i < s.count && s[i] == UInt8(ascii: "/") { closing = true; i += 1 }
        else if i < s.count && (s[i] == UInt8(ascii: "!") || s[i] == UInt8(ascii: "?")) { bang = true; i += 1 }
        guard i < s.count, isLetter(s[i]) else { return nil }
        let nameStart = i
        while i < s.count && (isLetter(s[i]) || (s[i] >= 0x30 && s[i] <= 0x39) || s[i] == 0x2D) { i += 1 }
        return (String(decoding: s[nameStart..<i], as: UTF8.self), i, closing, bang)
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    private static func starts(_ s: [UInt8], at i: Int, with prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return i + p.count <= s.count && Array(s[i..<(i + p.count)]) == p
    }

    public static func find(_ s: [UInt8], _ needle: String, from start: Int) -> Int? {
        let n = Array(needle.utf8)
        guard s.count >= n.count, start <= s.count - n.count else { return nil }
        for i in start...(s.count - n.count) where s[i] == n[0] && Array(s[i..<(i + n.count)]) == n { return i }
        return nil
    }
}
