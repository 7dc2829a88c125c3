/// How glossary entries are written: DeepL's two formats.
public enum GlossaryEntriesFormat: String, Sendable, CaseIterable {
    /// One entry per line, source and target separated by one tab.
    case tsv
    /// One entry per line, comma-separated (RFC 4180 quoting): `source,target` or
    /// `source,target,source_lang,target_lang` as DeepL's website exports it.
    case csv

    /// Reads `tsv` or `csv` (any case).
    /// - Throws: ``TranslationError`` `.invalidArgument` naming the accepted values.
    public init(parsing value: String) throws {
        guard let format = Self(rawValue: value.lowercased()) else {
            throw TranslationError.invalidArgument("entries_format", given: value, accepted: "tsv, csv")
        }
        self = format
    }
}

/// Reads and writes glossary entries, checking them as DeepL does: every line (blank lines
/// aside) is one entry; terms are trimmed of spaces and must not be empty, hold control
/// characters or line separators, or repeat a source term; an error names the line.
public enum GlossaryEntries {
    /// The largest entries text accepted (DeepL's limit for a glossary: 10 MB).
    public static let maxBytes = 10 * 1024 * 1024
    /// The longest term accepted, in UTF-8 bytes.
    public static let maxTermBytes = 1024

    /// The entries of `text`.
    /// - Throws: ``TranslationError`` `.invalidArgument` with the first problem and its line.
    public static func parse(_ text: String, format: GlossaryEntriesFormat) throws -> [GlossaryEntry] {
        guard text.utf8.count <= maxBytes else {
            throw invalid("the entries are \(text.utf8.count) bytes; at most \(maxBytes) are accepted")
        }
        var entries: [GlossaryEntry] = []
        var lineOfSource: [String: Int] = [:]
        for (index, line) in lines(of: text).enumerated() where !line.allSatisfy({ $0 == " " }) {
            let number = index + 1
            let fields = try format == .tsv ? tsvFields(line, number) : csvFields(line, number)
            let source = trim(fields[0]), target = trim(fields[1])
            try check(source, number, "source")
            try check(target, number, "target")
            if let earlier = lineOfSource[source] {
                throw invalid("line \(number): the source term \"\(source)\" is already on line \(earlier)")
            }
            lineOfSource[source] = number
            entries.append(GlossaryEntry(source: source, target: target))
        }
        guard !entries.isEmpty else { throw invalid("there are no entries") }
        return entries
    }

    /// `entries` as TSV, one per line.
    public static func tsv(_ entries: [GlossaryEntry]) -> String {
        entries.map { "\($0.source)\t\($0.target)" }.joined(separator: "\n")
    }

    /// Lines split at `\n`, `\r\n` or `\r`.
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    }

    private static func tsvFields(_ line: Substring, _ number: Int) throws -> [Substring] {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 2 else { throw invalid("line \(number): no tab between the source and the target term") }
        guard fields.count == 2 else { throw invalid("line \(number): more than one tab; an entry is a source and a target term") }
        return fields
    }

    /// RFC 4180 fields: `"…"` quotes a field, `""` inside it is one quote.
    private static func csvFields(_ line: Substring, _ number: Int) throws -> [Substring] {
        var fields: [Substring] = []
        var current = ""
        var quoted = false, wasQuoted = false
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if quoted {
                if c == "\"" {
                    let next = line.index(after: i)
                    if next < line.endIndex, line[next] == "\"" { current.append("\""); i = line.index(after: next); continue }
                    quoted = false
                } else {
                    current.append(c)
                }
            } else if c == "\"", current.allSatisfy({ $0 == " " }), !wasQuoted {
                quoted = true
                wasQuoted = true
                current = ""
            } else if c == "," {
                fields.append(Substring(current))
                current = ""
                wasQuoted = false
            } else {
                current.append(c)
            }
            i = line.index(after: i)
        }
        guard !quoted else { throw invalid("line \(number): a quoted field is not closed") }
        fields.append(Substring(current))
        guard fields.count == 2 || fields.count == 4 else {
            throw invalid("line \(number): \(fields.count) fields; an entry is source,target or source,target,source_lang,target_lang")
        }
        return fields
    }

    private static func trim(_ s: Substring) -> String {
        String(s.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    private static func check(_ term: String, _ number: Int, _ side: String) throws {
        guard !term.isEmpty else { throw invalid("line \(number): the \(side) term is empty") }
        guard term.utf8.count <= maxTermBytes else {
            throw invalid("line \(number): the \(side) term is longer than \(maxTermBytes) bytes")
        }
        for scalar in term.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || scalar == "\u{2028}" || scalar == "\u{2029}" {
            throw invalid("line \(number): the \(side) term \"\(term)\" holds a control character (U+\(String(scalar.value, radix: 16, uppercase: true)))")
        }
    }

    private static func invalid(_ problem: String) -> TranslationError {
        TranslationError(.invalidArgument, "Invalid glossary entries: \(problem).")
    }
}
