/// A document read once (``DocumentTranslator/open(_:)``): its format, the segments of its text
/// and how to rebuild it from their translations. What is billed, what detection samples and
/// what is translated are the same reading of the bytes.
public struct OpenedDocument: Sendable {
    /// What the bytes are.
    public let format: DocumentFormat
    /// The text, in document order.
    let segments: [Segment]
    /// The document with each segment's pieces replaced (in ``segments`` order).
    let rebuild: @Sendable ([[String]]) throws -> [UInt8]

    /// The characters translating it is billed: Unicode code points of the text of every
    /// paragraph that is translated (paragraphs without a letter are kept as they are, so they
    /// cost nothing), as the protocols bill text.
    public var billedCharacters: Int {
        segments.reduce(0) { total, segment in
            segment.hasText ? total + segment.pieces.reduce(0) { $0 + $1.unicodeScalars.count } : total
        }
    }

    /// The first `maxCharacters` or so of its text, paragraphs joined by newlines (to detect its
    /// language once, rather than paragraph by paragraph).
    public func sampleText(maxCharacters: Int = 2000) -> String {
        var sample = ""
        for segment in segments where segment.hasText {
            sample += segment.pieces.joined() + "\n"
            if sample.count >= maxCharacters { break }
        }
        return sample
    }
}
