/// Apertium stream format as APy's handlers read it: lexical units `^…$` found with APy's own
/// patterns, so the answers cut the stream where APy's do.
enum APyStream {
    /// `\^([^\$]*)\$([^\^]*)`: each unit's contents and the text after it up to the next `^`.
    static func unitsWithTrailing(_ stream: String) -> [(unit: String, after: String)] {
        var out: [(String, String)] = []
        var rest = Substring(stream)
        while let caret = rest.firstIndex(of: "^") {
            let body = rest[rest.index(after: caret)...]
            guard let dollar = body.firstIndex(of: "$") else { break }
            let unit = body[..<dollar]
            let tail = body[body.index(after: dollar)...]
            let after = tail.prefix { $0 != "^" }
            out.append((String(unit), String(after)))
            rest = tail[after.endIndex...]
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
        guard let last = units.last, !query.isEmpty, query.last != "." else { return units }
        let text = unit(last)
        guard text.hasPrefix("."), let second = text.dropFirst().first, second == "/" || second == "<" else { return units }
        return Array(units.dropLast())
    }

    /// `strip_tags`: the text before the first `<`.
    static func stripTags(_ analysis: String) -> String {
        analysis.firstIndex(of: "<").map { String(analysis[..<$0]) } ?? analysis
    }

    /// Splits on `/` as Python's `str.split('/')` does (keeping empty fields).
    static func fields(_ unit: String) -> [String] {
        unit.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}
