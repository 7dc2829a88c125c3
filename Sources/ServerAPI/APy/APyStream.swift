/// Apertium stream format as APy's handlers read it: lexical units `^…$` found with APy's own
/// patterns, so the answers cut the stream where APy's do.
///
/// Python's patterns match code points, so everything here works on Unicode scalars, never on
/// Swift's Characters: a combining mark right after `$` (Urdu's `غالباً` analyses as
/// `^غالبا/…$ً`) makes `$ً` one Character, and a Character search would not find the `$`.
enum APyStream {
    /// `\^([^\$]*)\$([^\^]*)`: each unit's contents and the text after it up to the next `^`.
    static func unitsWithTrailing(_ stream: String) -> [(unit: String, after: String)] {
        var out: [(String, String)] = []
        var rest = Substring.UnicodeScalarView(stream.unicodeScalars)
        while let caret = rest.firstIndex(of: "^") {
            let body = rest[rest.index(after: caret)...]
            guard let dollar = body.firstIndex(of: "$") else { break }
            let unit = body[..<dollar]
            let tail = body[body.index(after: dollar)...]
            let afterEnd = tail.firstIndex(of: "^") ?? tail.endIndex
            out.append((String(String.UnicodeScalarView(unit)), String(String.UnicodeScalarView(tail[..<afterEnd]))))
            rest = tail[afterEnd...]
        }
        return out
    }

    /// `\^([^\$]*)\$`: each unit's contents.
    static func units(_ stream: String) -> [String] { unitsWithTrailing(stream).map(\.unit) }

    /// `(\^[^\$]*\$[^\^]*)`: each unit written out with its trailing text (APy's /generate input).
    static func writtenUnits(_ stream: String) -> [String] {
        unitsWithTrailing(stream).map { "^\($0.unit)$\($0.after)" }
    }

    /// APy's `remove_dot_from_deformat`: the text deformatter ends its stream with a sentence
    /// end, which analyses as a `.` the user did not write; drop it unless the query ends in `.`.
    static func removingDeformatterDot<T>(_ query: String, _ units: [T], unit: (T) -> String) -> [T] {
        // `re.search(r'^\.[/<]', last unit)` and `query[-1] != '.'`, by code point.
        guard let last = units.last, let end = query.unicodeScalars.last, end != "." else { return units }
        let head = Array(unit(last).unicodeScalars.prefix(2))
        guard head.count == 2, head[0] == ".", head[1] == "/" || head[1] == "<" else { return units }
        return Array(units.dropLast())
    }

    /// `strip_tags`: the text before the first `<`.
    static func stripTags(_ analysis: String) -> String {
        let scalars = analysis.unicodeScalars
        return scalars.firstIndex(of: "<").map { String(String.UnicodeScalarView(scalars[..<$0])) } ?? analysis
    }

    /// Splits on `/` as Python's `str.split('/')` does (keeping empty fields), by code point.
    static func fields(_ unit: String) -> [String] {
        unit.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    }
}
