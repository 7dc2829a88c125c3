/// A text cut at its glossary terms, for an engine that cannot carry a term through in place:
/// the stretches between terms are translated each on its own, and the target terms go between
/// them unchanged. Whitespace at the edges of each stretch is kept as it was, so terms stay
/// separated from the words around them.
public struct SegmentedText: Sendable {
    /// One stretch of the text.
    public enum Piece: Sendable, Equatable {
        /// Words to translate, with the whitespace before and after them.
        case text(leading: String, words: String, trailing: String)
        /// A target term, to stand as it is.
        case kept(String)
    }

    /// The stretches in order.
    public let pieces: [Piece]

    /// `text` cut at the terms of `glossary`.
    public init(_ text: String, glossary: Glossary) {
        let bytes = Array(text.utf8)
        var pieces: [Piece] = []
        var position = 0
        for match in glossary.matches(in: bytes) {
            if match.range.lowerBound > position { pieces.append(Self.text(bytes[position..<match.range.lowerBound])) }
            pieces.append(.kept(match.target))
            position = match.range.upperBound
        }
        if position < bytes.count || pieces.isEmpty { pieces.append(Self.text(bytes[position...])) }
        self.pieces = pieces
    }

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
