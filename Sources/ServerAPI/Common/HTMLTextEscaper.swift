/// Google's html-mode output convention: the text between tags comes back HTML-escaped
/// (`'` → `&#39;`, `"` → `&quot;`, `>` → `&gt;`, a bare `<` or `&` escaped), tags and existing
/// entities untouched. Clients unescape it (or rely on it), so plain text sent with the default
/// `format=html` must come back escaped exactly this way. Markup that is not text is never
/// escaped: comments (an unclosed one runs to the end) and the bodies of `<script>` and `<style>`
/// come back byte for byte, or the page's code would break.
enum HTMLTextEscaper {
    /// Elements whose body is code, not text.
    private static let rawTextElements = ["script", "style"]

    /// Escapes the text runs of `html`, leaving tags, comments, script and style bodies and
    /// entities as they are.
    static func escapeText(in html: String) -> String {
        var out = ""
        out.reserveCapacity(html.utf8.count + 16)
        let chars = Array(html.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "<", let end = verbatimEnd(chars, at: i) {
                out.unicodeScalars.append(contentsOf: chars[i..<end])
                i = end
                continue
            }
            if c == "<", i + 1 < chars.count, isTagStart(chars[i + 1]), let end = chars[i...].firstIndex(of: ">") {
                out.unicodeScalars.append(contentsOf: chars[i...end])
                i = end + 1
                continue
            }
            switch c {
            case "'": out += "&#39;"
            case "\"": out += "&quot;"
            case ">": out += "&gt;"
            case "<": out += "&lt;"
            case "&": out += isEntity(chars, at: i) ? "&" : "&amp;"
            default: out.unicodeScalars.append(c)
            }
            i += 1
        }
        return out
    }

    /// Where a comment or a script/style element starting at `i` ends (its closing tag included;
    /// the end of the input when it is not closed), or nil when none starts there.
    private static func verbatimEnd(_ chars: [Unicode.Scalar], at i: Int) -> Int? {
        if matches(chars, at: i, "<!--") {
            return find(chars, "-->", from: i + 4).map { $0 + 3 } ?? chars.count
        }
        for name in rawTextElements where matches(chars, at: i + 1, name, caseInsensitive: true) {
            let after = i + 1 + name.unicodeScalars.count
            guard after < chars.count, [">", " ", "/", "\t", "\n", "\r"].contains(chars[after]) else { continue }
            guard let bodyStart = chars[after...].firstIndex(of: ">").map({ $0 + 1 }) else { return nil }
            guard let close = find(chars, "</" + name, from: bodyStart, caseInsensitive: true) else { return chars.count }
            return chars[close...].firstIndex(of: ">").map { $0 + 1 } ?? chars.count
        }
        return nil
    }

    private static func matches(_ chars: [Unicode.Scalar], at i: Int, _ text: String, caseInsensitive: Bool = false) -> Bool {
        let pattern = Array(text.unicodeScalars)
        guard i >= 0, i + pattern.count <= chars.count else { return false }
        for (k, p) in pattern.enumerated() {
            let c = chars[i + k]
            if c == p { continue }
            if caseInsensitive, c.isASCII, p.isASCII, c.properties.lowercaseMapping == p.properties.lowercaseMapping { continue }
            return false
        }
        return true
    }

    private static func find(_ chars: [Unicode.Scalar], _ text: String, from start: Int, caseInsensitive: Bool = false) -> Int? {
        var i = start
        while i < chars.count {
            if matches(chars, at: i, text, caseInsensitive: caseInsensitive) { return i }
            i += 1
        }
        return nil
    }

    private static func isTagStart(_ c: Unicode.Scalar) -> Bool {
        c == "/" || c == "!" || c == "?" || (c.isASCII && c.properties.isAlphabetic)
    }

    /// `&name;`, `&#123;` or `&#x1F;` starting at `i`.
    private static func isEntity(_ chars: [Unicode.Scalar], at i: Int) -> Bool {
        var j = i + 1
        var length = 0
        while j < chars.count, length <= 32 {
            let c = chars[j]
            if c == ";" { return length > 0 }
            guard c.isASCII, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "#" else { return false }
            j += 1
            length += 1
        }
        return false
    }
}
