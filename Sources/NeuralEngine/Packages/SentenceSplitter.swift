/// Cuts text into sentences for a neural model, keeping every character between them.
///
/// Argos Translate translates a paragraph sentence by sentence (its models are trained on
/// sentences, and quality falls on long inputs); this does the same with a rule that needs no
/// language model: a sentence ends at `.`, `!`, `?`, `…` or their CJK/Indic/Arabic forms, plus any
/// closing quotes or brackets, when whitespace follows and the next text does not start with a
/// lowercase letter or a digit ("U.S. cent", "a.m. a hush", "Jr. crashed", "No. 5" stay whole). A
/// full stop after one capital letter ("J. K. Rowling") or a common title ("Dr.", "Mr.") ends
/// no sentence. CJK terminators (`。！？`) end a sentence even without whitespace. Line breaks
/// always end a sentence.
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
                if hasBreak || next == nil || endsSentence(text[sentenceStart..<i], before: next!) {
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
                while end < text.endIndex, Self.closers.contains(text[end]) { end = text.index(after: end) }
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

    private static let terminators: Set<Character> = [".", "!", "?", "…", "。", "！", "？", "।", "॥", "؟", "۔", "։", "።"]
    private static let fullWidthTerminators: Set<Character> = ["。", "！", "？"]
    private static let closers: Set<Character> = ["\"", "'", "”", "’", "»", "›", ")", "]", "}", "」", "』", "）"]
    /// Titles and abbreviations that are followed by a capitalised word inside a sentence.
    private static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "mt", "gen", "col", "capt", "lt", "sgt",
        "gov", "sen", "rep", "rev", "hon", "vs", "etc", "e.g", "i.e", "no", "vol", "fig", "inc", "ltd", "co",
    ]

    /// Whether `sentence` (text since the last boundary) ends a sentence when `next` follows
    /// after whitespace.
    private static func endsSentence(_ sentence: Substring, before next: Character) -> Bool {
        if next.isLowercase || next.isNumber { return false }
        var body = sentence[...]
        while let last = body.last, closers.contains(last) { body = body.dropLast() }
        guard let mark = body.last, terminators.contains(mark) else { return false }
        guard mark == "." else { return true }
        // The word before the full stop: an initial or a known abbreviation ends no sentence.
        let word = body.dropLast().reversed().prefix { !$0.isWhitespace && !closers.contains($0) && $0 != "(" && $0 != "\"" }
        let lowered = String(word.reversed()).lowercased()
        // "J." and "U.S." (single letters between full stops) are initials, not sentence ends.
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        if parts.allSatisfy({ $0.count == 1 && $0.first!.isLetter }) { return false }
        return !abbreviations.contains(lowered)
    }
}
