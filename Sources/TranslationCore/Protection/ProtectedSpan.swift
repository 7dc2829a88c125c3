/// A stretch of a text that no engine translates: a placeholder (``Placeholders``), which stands
/// in the translation exactly as it was, or a glossary term (``Glossary``), whose target term
/// stands there instead. Engines carry spans through at their own depth (Apertium as a
/// superblank, the neural engine by translating around them); nothing searches the output.
public struct ProtectedSpan: Sendable, Equatable {
    /// UTF-8 offsets of the span in the text.
    public let range: Range<Int>
    /// What stands in the translation: nil for the span itself, unchanged (a placeholder), else
    /// the text to put there (a glossary's target term, plain text).
    public let output: String?

    /// Makes a span.
    public init(range: Range<Int>, output: String?) {
        self.range = range
        self.output = output
    }

    /// The spans of `bytes` (UTF-8) read as `format`: its placeholders (unless `placeholders`
    /// is false), and the terms of `glossary` that do not overlap one; in order, none
    /// overlapping another.
    public static func find(in bytes: [UInt8], format: TextFormat, glossary: Glossary?, placeholders keep: Bool = true) -> [ProtectedSpan] {
        let placeholders = keep ? Placeholders.spans(in: bytes, format: format) : []
        guard let glossary else { return placeholders }
        let terms = glossary.matches(in: bytes)
        guard !placeholders.isEmpty else { return terms }
        let free = terms.filter { term in !placeholders.contains { $0.range.overlaps(term.range) } }
        return (placeholders + free).sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The text that stands in the translation, given the text the span was found in.
    public func text(in bytes: [UInt8]) -> String {
        output ?? String(decoding: bytes[range], as: UTF8.self)
    }
}
