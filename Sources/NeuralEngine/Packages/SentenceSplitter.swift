import TranslationCore

/// Cuts text into sentences for a neural model, keeping every character between them.
///
/// Argos Translate translates a paragraph sentence by sentence (its models are trained on
/// sentences, and quality falls on long inputs); this does the same with
/// ``SentenceBoundary``'s rule, which needs no language model. CJK terminators (`。！？`) end a
/// sentence even without whitespace. Line breaks always end a sentence.
///
/// The invariant callers rely on: concatenating the segments in order gives back the input
/// exactly, byte for byte (whitespace, line breaks and `\r\n` included).
enum SentenceSplitter {
    /// One piece of the input: a sentence to translate, or the text between sentences.
    enum Segment: Equatable {
        case sentence(Substring)
        case gap(Substring)
    }

    /// The segments of `text`, in order; gaps are runs of whitespace (never empty).
    static func segments(_ text: String) -> [Segment] {
        var out: [Segment] = []
        var sentenceStart = text.startIndex
        var i = text.startIndex
        // Leading whitespace is a gap of its own.
        while i < text.endIndex, text[i].isWhitespace { i = text.index(after: i) }
        if i > sentenceStart { out.append(.gap(text[sentenceStart..<i])) }
        sentenceStart = i
        while i < text.endIndex {
            let c = text[i]
            if c.isWhitespace {
                // A whitespace run: a sentence boundary if it holds a line break or follows a
                // sentence end; otherwise part of the sentence.
                var end = i
                var hasBreak = false
                while end < text.endIndex, text[end].isWhitespace {
                    if text[end].isNewline { hasBreak = true }
                    end = text.index(after: end)
                }
                let next = end < text.endIndex ? text[end] : nil
                if hasBreak || next == nil || SentenceBoundary.endsSentence(text[sentenceStart..<i], before: next!) {
                    if sentenceStart < i { out.append(.sentence(text[sentenceStart..<i])) }
                    out.append(.gap(text[i..<end]))
                    sentenceStart = end
                }
                i = end
                continue
            }
            i = text.index(after: i)
            // CJK full-width terminators need no following space.
            if Self.fullWidthTerminators.contains(c) {
                var end = i
                while end < text.endIndex, SentenceBoundary.closers.contains(text[end]) { end = text.index(after: end) }
                if end < text.endIndex, !text[end].isWhitespace {
                    out.append(.sentence(text[sentenceStart..<end]))
                    sentenceStart = end
                }
                i = end
            }
        }
        if sentenceStart < text.endIndex { out.append(.sentence(text[sentenceStart...])) }
        return out
    }

    /// CJK full-width terminators, which end a sentence even without whitespace after them.
    private static let fullWidthTerminators: Set<Character> = ["。", "！", "？"]
}
