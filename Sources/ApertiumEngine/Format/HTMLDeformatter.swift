import Foundation
import TranslationCore

/// HTML → Apertium stream, matching Debian's `apertium-deshtml` (see `DeformatterTests`): tags,
/// comments, `<script>`/`<style>` bodies and markup entities become superblanks, block tags end
/// sentences, and only the text between tags is translated.
///
/// One deliberate difference: deshtml decodes letter entities (`&eacute;`) into Latin-1 bytes,
/// which garbles UTF-8 output; Glossa decodes them into UTF-8 letters (`é`) so they are translated
/// as part of their word, and keeps every other entity verbatim as a superblank.
enum HTMLDeformatter {
    /// Characters backslash-escaped in words (`<` and `>` never reach a word: they are blanks).
    static func needsEscape(_ b: UInt8) -> Bool {
        switch b {
        case Byte.openBracket, Byte.closeBracket, Byte.backslash, Byte.slash, Byte.at, Byte.caret,
             Byte.dollar, Byte.openBrace, Byte.closeBrace:
            return true
        default:
            return false
        }
    }

    /// Tags that end a sentence, as in apertium's `html-format.xml`.
    static let sentenceTags: Set<String> = [
        "br", "hr", "p", "li", "ul", "ol", "tr", "td", "th", "title", "div", "option",
        "h1", "h2", "h3", "h4", "h5", "h6",
    ]

    /// Elements whose whole body is kept verbatim: code (deshtml's `script`, `style` and
    /// `apertium-notrans`, and `code`, which deshtml would translate), and any element marked
    /// `translate="no"` or `class="notranslate"` (how a page tells Google Translate to leave it).
    static let opaqueElements: Set<String> = ["script", "style", "apertium-notrans", "code"]

    /// Deformats `html`; its placeholders, and each term of `glossary` found in its text (not in
    /// tags, comments or untranslated elements, and not across a tag or a character reference),
    /// travel as superblanks, a term's target HTML-escaped (``ProtectedSpans``).
    /// With `placeholders` false, placeholders are text, as `apertium-deshtml` reads them.
    /// `markup` adds elements to leave untranslated and changes which end sentences.
    static func deformat(_ html: String, glossary: Glossary? = nil, placeholders: Bool = true,
                         markup: MarkupOptions = MarkupOptions()) -> DeformattedText {
        let input = Array(html.utf8)
        let found = ProtectedSpan.find(in: input, format: .html, glossary: glossary, placeholders: placeholders).filter { span in
            !input[span.range].contains { $0 == Byte.less || $0 == Byte.greater || $0 == Byte.ampersand }
        }
        var builder = StreamBuilder(capacity: input.count, escape: needsEscape)
        var spans = ProtectedSpans(found, source: { Array(input[$0]) }, render: HTMLDeformatter.escapeText)
        var i = 0
        while i < input.count {
            let b = input[i]
            if let end = spans.place(at: i, into: &builder) {
                i = end
            } else if Byte.isBlank(b) {
                builder.appendBlank(CollectionOfOne(b), endsSentence: false, escape: needsEscape)
                i += 1
            } else if b == Byte.less {
                let end = markupEnd(input, from: i, markup: markup)
                builder.appendBlank(input[i..<end.index], endsSentence: end.endsSentence, escape: needsEscape)
                i = end.index
            } else if b == Byte.openBrace, i + 1 < input.count, input[i + 1] == Byte.openBrace,
                      let close = find(input, "}}", from: i + 2) {
                // `{{…}}` is a comment to deshtml (templates: MediaWiki, Vue, Angular).
                builder.appendBlank(input[i..<(close + 2)], endsSentence: false, escape: needsEscape)
                i = close + 2
            } else if b == Byte.greater {
                builder.appendBlank(CollectionOfOne(b), endsSentence: false, escape: needsEscape)
                i += 1
            } else if b == Byte.ampersand, let entity = HTMLEntities.match(input, at: i) {
                if let letter = entity.letter {
                    for byte in letter.utf8 { builder.appendWordByte(byte) }
                } else {
                    builder.appendBlank(input[i..<entity.end], endsSentence: false, escape: needsEscape)
                }
                i = entity.end
            } else if b == Byte.nul {
                // A NUL would end the request frame early: it travels as a marker instead.
                builder.appendRawBlank(Reformatter.nulToken)
                i += 1
            } else {
                builder.appendWordByte(b)
                i += 1
            }
        }
        return builder.finish()
    }

    /// `text` with `&`, `<` and `>` written as references, to stand in HTML.
    static func escapeText(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Where the markup starting with `<` at `start` ends, and whether it ends a sentence.
    /// A `<` that starts no markup is a blank of its own, as in deshtml.
    static func markupEnd(_ s: [UInt8], from start: Int, markup: MarkupOptions = MarkupOptions()) -> (index: Int, endsSentence: Bool) {
        if starts(s, at: start, with: "<!--") {
            let close = find(s, "-->", from: start + 4)
            return (close.map { $0 + 3 } ?? s.count, false)
        }
        let name = tagName(s, from: start + 1)
        guard let name else { return (start + 1, false) }
        guard let close = s[(start + 1)...].firstIndex(of: Byte.greater) else { return (start + 1, false) }
        let lowered = name.name.lowercased()
        // The tag name must end the name: `<p>` or `<p class…>`, not `<pre>`.
        let nameEnds = name.end < s.count && (s[name.end] == Byte.greater || s[name.end] == Byte.space)
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
            guard s[i] == Byte.less, let tag = tagName(s, from: i + 1), tag.name.lowercased() == name,
                  tag.end >= s.count || !isLetter(s[tag.end]) else { i += 1; continue }
            let close = s[i...].firstIndex(of: Byte.greater).map { $0 + 1 } ?? s.count
            if tag.closing {
                depth -= 1
                if depth == 0 { return close }
            } else if !raw, !(close >= 2 && s[close - 2] == Byte.slash) {
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
        if i < s.count && s[i] == Byte.slash { closing = true; i += 1 }
        else if i < s.count && (s[i] == Byte.bang || s[i] == Byte.question) { bang = true; i += 1 }
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

    private static func find(_ s: [UInt8], _ needle: String, from start: Int) -> Int? {
        let n = Array(needle.utf8)
        guard s.count >= n.count, start <= s.count - n.count else { return nil }
        for i in start...(s.count - n.count) where s[i] == n[0] && Array(s[i..<(i + n.count)]) == n { return i }
        return nil
    }

    private static func findCaseInsensitive(_ s: [UInt8], _ needle: String, from start: Int) -> Int? {
        let n = Array(needle.lowercased().utf8)
        guard s.count >= n.count, start <= s.count - n.count else { return nil }
        outer: for i in start...(s.count - n.count) {
            for k in 0..<n.count {
                let c = s[i + k]
                let lower = (c >= 0x41 && c <= 0x5A) ? c | 0x20 : c
                if lower != n[k] { continue outer }
            }
            return i
        }
        return nil
    }
}
