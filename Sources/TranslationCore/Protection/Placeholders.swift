/// Placeholders that software puts in its strings (what Weblate and gettext send to translate):
/// they must come back byte for byte, in their sentence, never translated. Found here:
///
/// - braces: `{name}`, `{0}`, `{{count}}`, `{{ name }}`, ICU `{n, plural, one {# item} other {# items}}`
///   (the whole expression, nested braces and all), `${var}`, `%{name}`;
/// - printf: `%s`, `%d`, `%1$d`, `%-5.2f`, `%(name)s`, `%%`, and Qt's `%1`;
/// - `$var` (shell, PHP, Perl);
/// - in plain text, XLIFF inline codes and Weblate's tag placeholders: `<x id="1"/>`, `<x id="1"></x>`,
///   `<g id="1">` and `</g>` (the text between is translated), `<bx/>`, `<ex/>`, and
///   `<ph>…</ph>`, `<bpt>…</bpt>`, `<ept>…</ept>`, `<it>…</it>` with their content (in HTML,
///   every tag is markup already).
///
/// A candidate that is not well formed (a `{` never closed, `%` before a space, `$` before a
/// digit: `$5`) is text.
public enum Placeholders {
    /// The longest brace expression taken as one placeholder.
    static let maxBraceBytes = 2000

    /// The placeholders of `bytes` (UTF-8) read as `format`, in order, not overlapping.
    public static func spans(in bytes: [UInt8], format: TextFormat = .text) -> [ProtectedSpan] {
        var out: [ProtectedSpan] = []
        var i = 0
        while i < bytes.count {
            let end: Int?
            switch bytes[i] {
            case UInt8(ascii: "{"): end = braceEnd(bytes, i)
            case UInt8(ascii: "%"): end = percentEnd(bytes, i)
            case UInt8(ascii: "$"): end = dollarEnd(bytes, i)
            case UInt8(ascii: "<") where format == .text: end = inlineCodeEnd(bytes, i)
            default: end = nil
            }
            if let end {
                out.append(ProtectedSpan(range: i..<end, output: nil))
                i = end
            } else {
                i += 1
            }
        }
        return out
    }

    /// `{…}` with nesting, whose content starts with a name, a digit or another `{` (so
    /// `{{ name }}` is one, and `{ spaced }` is text).
    static func braceEnd(_ b: [UInt8], _ start: Int) -> Int? {
        let k = start + 1
        guard k < b.count, isNameByte(b[k]) || b[k] == UInt8(ascii: "{") || b[k] == UInt8(ascii: "#") else { return nil }
        var depth = 0
        var i = start
        while i < b.count, i - start < maxBraceBytes {
            if b[i] == UInt8(ascii: "{") { depth += 1 }
            if b[i] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    /// `%%`, `%{name}`, `%(name)s`, `%1`, and printf's `%[n$][flags][width][.precision][length]conversion`.
    static func percentEnd(_ b: [UInt8], _ start: Int) -> Int? {
        var i = start + 1
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "%") { return i + 1 }
        if b[i] == UInt8(ascii: "{") { return braceEnd(b, i) }
        if b[i] == UInt8(ascii: "(") {
            guard let close = b[i...].prefix(64).firstIndex(of: UInt8(ascii: ")")), close > i + 1,
                  b[(i + 1)..<close].allSatisfy(isNameByte) else { return nil }
            i = close + 1
        } else {
            let digits = skipDigits(b, i)
            if digits > i, digits < b.count, b[digits] == UInt8(ascii: "$") {
                i = digits + 1
            } else if digits > i, digits >= b.count || !isLetter(b[digits]) {
                return digits  // Qt's %1
            }
        }
        while i < b.count, "-+#0'".utf8.contains(b[i]) { i += 1 }
        i = i < b.count && b[i] == UInt8(ascii: "*") ? i + 1 : skipDigits(b, i)
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            i = i < b.count && b[i] == UInt8(ascii: "*") ? i + 1 : skipDigits(b, i)
        }
        for length in ["hh", "ll", "h", "l", "L", "q", "j", "z", "t"] where starts(b, i, length) {
            i += length.utf8.count
            break
        }
        guard i < b.count, "diouxXeEfFgGaAcspn@".utf8.contains(b[i]) else { return nil }
        // A letter may follow (`%uMB`, `%dpx`): catalogues write units right after a number.
        return i + 1
    }

    /// `${…}` or `$name`.
    static func dollarEnd(_ b: [UInt8], _ start: Int) -> Int? {
        let i = start + 1
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "{") { return braceEnd(b, i) }
        guard isLetter(b[i]) || b[i] == UInt8(ascii: "_") else { return nil }
        var k = i
        while k < b.count, isNameByte(b[k]) { k += 1 }
        return k
    }

    /// XLIFF's inline codes in plain text.
    static let emptyCodes: Set<String> = ["x", "bx", "ex", "g", "mrk"]
    static let codesWithContent: Set<String> = ["ph", "bpt", "ept", "it"]

    static func inlineCodeEnd(_ b: [UInt8], _ start: Int) -> Int? {
        var i = start + 1
        let closing = i < b.count && b[i] == UInt8(ascii: "/")
        if closing { i += 1 }
        var k = i
        while k < b.count, isLetter(b[k]) { k += 1 }
        let name = String(decoding: b[i..<k], as: UTF8.self)
        guard emptyCodes.contains(name) || codesWithContent.contains(name), k < b.count,
              b[k] == UInt8(ascii: " ") || b[k] == UInt8(ascii: "/") || b[k] == UInt8(ascii: ">") else { return nil }
        guard let close = b[k...].prefix(1000).firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let tagEnd = close + 1
        if closing || b[close - 1] == UInt8(ascii: "/") || name == "g" || name == "mrk" { return tagEnd }
        // `<x id="1"></x>` and `<ph>…</ph>`: up to the end tag, content and all.
        let endTag = Array("</\(name)>".utf8)
        var j = tagEnd
        while j + endTag.count <= b.count, j - start < maxBraceBytes {
            if b[j] == UInt8(ascii: "<"), Array(b[j..<(j + endTag.count)]) == endTag { return j + endTag.count }
            j += 1
        }
        return name == "x" || name == "bx" || name == "ex" ? tagEnd : nil
    }

    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    static func isNameByte(_ c: UInt8) -> Bool {
        isLetter(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
    }
    static func skipDigits(_ b: [UInt8], _ from: Int) -> Int {
        var i = from
        while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
        return i
    }
    static func starts(_ b: [UInt8], _ i: Int, _ s: String) -> Bool {
        let p = Array(s.utf8)
        return i + p.count <= b.count && Array(b[i..<(i + p.count)]) == p
    }
}
