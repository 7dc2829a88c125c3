/// A text cut at what must not be translated, for an engine that cannot carry such spans
/// through in place (the neural engine): the stretches between are translated each on its own,
/// and what stands between them goes back unchanged. Whitespace at the edges of each stretch is
/// kept as it was, so nothing runs into the words around it.
///
/// Plain text is cut at its placeholders and glossary terms (``ProtectedSpan``). HTML is cut at
/// its markup first, read as Apertium's deformatter reads it (``MarkupScanner``: tags, comments,
/// and the whole body of `<script>`, `<style>`, `<code>`, `translate="no"`, `class="notranslate"`
/// and ignored elements stay as they were), then each text node at its placeholders and terms;
/// a text node's character references are decoded for the engine (`&eacute;` is the letter é)
/// and its translation is escaped again (`&`, `<`, `>`), so the answer is HTML with every tag in
/// place. The price of cutting: an inline tag (`<b>`) ends the stretch, so the words on either
/// side are translated apart.
public struct SegmentedText: Sendable {
    /// One stretch of the text.
    public enum Piece: Sendable, Equatable {
        /// Words to translate, with the whitespace before and after them.
        case text(leading: String, words: String, trailing: String)
        /// What goes back exactly as it is: markup, a placeholder, a target term (escaped for HTML).
        case kept(String)
    }

    /// The stretches in order.
    public let pieces: [Piece]
    /// Whether translations are escaped for HTML when put back.
    public let escapesTranslations: Bool

    /// `text` cut at its placeholders and the terms of `glossary`.
    public init(_ text: String, glossary: Glossary?) {
        pieces = Self.cut(Array(text.utf8)[...], glossary: glossary, html: false)
        escapesTranslations = false
    }

    /// `html` cut at its markup, then each text node at its placeholders and the terms of `glossary`.
    public init(html: String, glossary: Glossary?, markup: MarkupOptions = MarkupOptions()) {
        let bytes = Array(html.utf8)
        var pieces: [Piece] = []
        var i = 0, textStart = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                let end = MarkupScanner.markupEnd(bytes, from: i, markup: markup).index
                // A `<` that opens no markup (`a < b`) is text.
                if end > i + 1 {
                    if i > textStart { pieces += Self.cut(Self.decoded(bytes[textStart..<i])[...], glossary: glossary, html: true) }
                    pieces.append(.kept(String(decoding: bytes[i..<end], as: UTF8.self)))
                    i = end
                    textStart = end
                    continue
                }
            }
            i += 1
        }
        if textStart < bytes.count || pieces.isEmpty {
            pieces += Self.cut(Self.decoded(bytes[textStart...])[...], glossary: glossary, html: true)
        }
        self.pieces = pieces
        escapesTranslations = true
    }

    /// Whether anything is kept: without, a plain text is translated whole.
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
            case .kept(let kept): return kept
            case .text(let leading, let words, let trailing):
                let translated = words.isEmpty ? "" : next.next() ?? words
                return escapesTranslations ? HTMLCharacterReferences.escape(leading) + HTMLCharacterReferences.escape(translated) + HTMLCharacterReferences.escape(trailing)
                                           : leading + translated + trailing
            }
        }.joined()
    }

    /// `bytes` cut at its placeholders and terms; for HTML, what is kept is escaped.
    private static func cut(_ bytes: ArraySlice<UInt8>, glossary: Glossary?, html: Bool) -> [Piece] {
        let bytes = Array(bytes)
        var pieces: [Piece] = []
        var position = 0
        for span in ProtectedSpan.find(in: bytes, format: .text, glossary: glossary) {
            if span.range.lowerBound > position { pieces.append(text(bytes[position..<span.range.lowerBound])) }
            pieces.append(.kept(html ? HTMLCharacterReferences.escape(span.text(in: bytes)) : span.text(in: bytes)))
            position = span.range.upperBound
        }
        if position < bytes.count || pieces.isEmpty { pieces.append(text(bytes[position...])) }
        return pieces
    }

    private static func text(_ slice: ArraySlice<UInt8>) -> Piece {
        let s = String(decoding: slice, as: UTF8.self)
        let words = s.drop(while: \.isWhitespace)
        let leading = s[s.startIndex..<words.startIndex]
        let trimmed = words.reversed().drop(while: \.isWhitespace)
        let end = trimmed.isEmpty ? words.startIndex : trimmed.startIndex.base
        return .text(leading: String(leading), words: String(words[words.startIndex..<end]), trailing: String(words[end...]))
    }

    /// A text node's bytes with its character references decoded.
    private static func decoded(_ slice: ArraySlice<UInt8>) -> [UInt8] {
        let bytes = Array(slice)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "&"), let (scalar, end) = HTMLCharacterReferences.decode(bytes, at: i) {
                out += Array(String(Character(scalar)).utf8)
                i = end
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
