/// A plain text cut at its protected spans (placeholders and glossary terms, ``ProtectedSpan``),
/// for an engine that cannot carry a span through in place: the stretches between spans are
/// translated each on its own, and what each span stands for goes between them unchanged. Whitespace at the edges of each stretch is kept as it was, so terms stay
/// separated from the words around them.
public struct SegmentedText: Sendable {
    /// One stretch of the text.
    public enum Piece: Sendable, Equatable {
        /// Words to translate, with the whitespace before and after them.
        case text(leading: String, words: String, trailing: String)
        /// A placeholder or a target term, to stand as it is.
        case kept(String)
    }

    /// The stretches in order.
    public let pieces: [Piece]

    /// `text` cut at its placeholders and the terms of `glossary`.
    public init(_ text: String, glossary: Glossary?) {
        let bytes = Array(text.utf8)
        var pieces: [Piece] = []
        var position = 0
        for span in ProtectedSpan.find(in: bytes, format: .text, glossary: glossary) {
            if span.range.lowerBound > position { pieces.append(Self.text(bytes[position..<span.range.lowerBound])) }
            pieces.append(.kept(span.text(in: bytes)))
            position = span.range.upperBound
        }
        if position < bytes.count || pieces.isEmpty { pieces.append(Self.text(bytes[position...])) }
        self.pieces = pieces
    }

    /// Whether anything is kept: without, the text is translated whole.
    public var keepsAnything: Bool { pieces.contains { if case .kept = $0 { true } else { false } } }

    /// The words to translate, one per stretch that has any, in order.
    public var sources: [String] {
        pieces.compactMap { if case .text(_, let words, _) = $0, !words.isEmpty { return words } else { return nil } }
    }

    /// The text again, each stretch's words replaced by the next of `translations` (one per
    /// ``sources`` entry, in order).
    public func assemble(_ translations: [String]) -> String {
        var next = translations.makeIterator()
        return pieces.map { piece -> String in
            switch piece {
            case .kept(let term): return term
            case .text(let leading, let words, let trailing):
                return leading + (words.isEmpty ? "" : next.next() ?? words) + trailing
            }
        }.joined()
    }

    private static func text(_ slice: ArraySlice<UInt8>) -> Piece {
        let s = String(decoding: slice, as: UTF8.self)
        let words = s.drop(while: \.isWhitespace)
        let leading = s[s.startIndex..<words.startIndex]
        let trimmed = words.reversed().drop(while: \.isWhitespace)
        let end = trimmed.isEmpty ? words.startIndex : trimmed.startIndex.base
        return .text(leading: String(leading), words: String(words[words.startIndex..<end]), trailing: String(words[end...]))
    }
}
