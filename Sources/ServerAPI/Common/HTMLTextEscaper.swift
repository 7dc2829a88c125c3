/// Google's html-mode output convention: the text between tags comes back HTML-escaped
/// (`'` → `&#39;`, `"` → `&quot;`, `>` → `&gt;`, a bare `<` or `&` escaped), tags and existing
/// entities untouched. Clients unescape it (or rely on it), so plain text sent with the default
/// `format=html` must come back escaped exactly this way.
enum HTMLTextEscaper {
    /// Escapes the text runs of `html`, leaving tags, comments and entities as they are.
    static func escapeText(in html: String) -> String {
        var out = ""
        out.reserveCapacity(html.utf8.count + 16)
        let chars = Array(html.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
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
