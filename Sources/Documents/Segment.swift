/// One unit of a document that is translated on its own: a paragraph (a table cell, a slide's
/// text line, a spreadsheet string), as the text pieces its markup cuts it into.
///
/// A paragraph of an office document is rarely one run of text: bold words, a link, a change of
/// font, even Word's spell-check bookkeeping cut it into runs, and each run's text is its own
/// text node. The pieces are translated together, as one sentence stream, so that words are
/// translated in context; each comes back to its own node, so the formatting stays where it was.
struct Segment: Sendable, Equatable {
    /// How the segment's text is given to the engine.
    enum Kind: Sendable, Equatable {
        /// One plain-text string (a paragraph of a .txt file).
        case plainText
        /// One HTML string (a whole .html document): the engine keeps its markup.
        case html
        /// Text pieces between which the document has markup (runs of a docx paragraph).
        case pieces
    }

    var kind: Kind
    /// The texts (one for plainText and html), decoded: no XML or RTF escapes.
    var pieces: [String]
    /// For `.pieces`: `joinable[i]` says whether the markup before piece `i + 1` is formatting
    /// only (a run boundary), so that a word cut there is one word; false where it is a tab, a
    /// line break, a space element, a field or a nested paragraph.
    var joinable: [Bool] = []

    /// Whether the segment holds anything to translate (a letter).
    var hasText: Bool { pieces.contains { $0.unicodeScalars.contains { $0.properties.isAlphabetic } } }
}

/// The translated pieces of `.pieces` segments, carried through the engine as one HTML string.
///
/// Each piece is HTML-escaped and pieces are separated by an empty marker element `<gN>` (N the
/// index of the piece that follows). Apertium's HTML deformatter takes a tag for a superblank,
/// which every stage passes on unchanged and in order, so the output is the translation with the
/// markers where the piece boundaries went; the text after marker N is piece N's. A boundary
/// inside a word (Word often splits `Hel|lo` into two runs of the same formatting) gets no
/// marker, since a tag would cut the word in two: the whole word goes to the first piece and the
/// second gets nothing, which keeps every run in place.
enum PieceCodec {
    /// The HTML string for `segment`.
    static func encode(_ segment: Segment) -> String {
        var out = ""
        for (i, piece) in segment.pieces.enumerated() {
            if i > 0, !joinsInsideWord(segment, at: i) { out += "<g\(i)>" }
            out += escape(piece)
        }
        return out
    }

    /// The pieces of `segment` from the engine's `output` for ``encode(_:)``'s string.
    /// Robust to markers that come back out of order, twice or not at all: each stretch of text
    /// goes to the piece its preceding marker names; pieces no text reaches are empty.
    static func decode(_ output: String, for segment: Segment) -> [String] {
        var pieces = Array(repeating: "", count: segment.pieces.count)
        var current = 0
        var text = Substring(output)
        while let open = text.firstRange(of: "<g") {
            pieces[current] += unescape(text[..<open.lowerBound])
            let rest = text[open.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == ">", let n = Int(digits), n < pieces.count {
                current = n
                text = rest.dropFirst(digits.count + 1)
            } else {
                pieces[current] += "<g"
                text = rest
            }
        }
        pieces[current] += unescape(text)
        return pieces
    }

    /// Whether the boundary before piece `i` lies inside a word: formatting-only markup between a
    /// letter or digit on each side.
    static func joinsInsideWord(_ segment: Segment, at i: Int) -> Bool {
        guard i - 1 < segment.joinable.count, segment.joinable[i - 1],
              let before = segment.pieces[i - 1].unicodeScalars.last,
              let after = segment.pieces[i].unicodeScalars.first else { return false }
        return isWordScalar(before) && isWordScalar(after)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Undoes ``escape(_:)`` (the engine passes the references through as it got them).
    static func unescape(_ text: Substring) -> String {
        // On bytes: `contains("&")` on a string is Foundation's substring search, per piece.
        guard text.utf8.contains(0x26) else { return String(text) }
        return String(text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&amp;", with: "&"))
    }
}
