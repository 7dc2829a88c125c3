/// Where a sentence ends in running text, by a rule that needs no language model. The one
/// definition both engines cut by: the neural engine translates sentence by sentence (as Argos
/// Translate does), and the Apertium engine cuts long input into chunks only where a sentence
/// ends, since a cut anywhere else ends a sentence in the pipeline's eyes and changes the
/// translation around it.
///
/// A sentence ends at `.`, `!`, `?`, `…` or their CJK/Indic/Arabic forms, plus any closing quotes
/// or brackets, when whitespace follows and the next text does not start with a lowercase letter
/// or a digit ("U.S. cent", "a.m. a hush", "Jr. crashed", "No. 5" stay whole). A full stop after
/// single letters ("J. K. Rowling", "U.S. Army") or a common title ("Dr.", "Mr.") ends no sentence.
public enum SentenceBoundary {
    /// Marks that can end a sentence.
    public static let terminators: Set<Character> = [".", "!", "?", "…", "。", "！", "？", "।", "॥", "؟", "۔", "։", "።"]
    /// Closing quotes and brackets that may follow a sentence's mark.
    public static let closers: Set<Character> = ["\"", "'", "”", "’", "»", "›", ")", "]", "}", "」", "』", "）"]
    /// Titles and abbreviations that are followed by a capitalised word inside a sentence.
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "mt", "gen", "col", "capt", "lt", "sgt",
        "gov", "sen", "rep", "rev", "hon", "vs", "etc", "e.g", "i.e", "no", "vol", "fig", "inc", "ltd", "co",
    ]

    /// Whether `text` (what precedes the whitespace: a sentence so far, or only its last word)
    /// ends a sentence when `next` follows after that whitespace.
    public static func endsSentence(_ text: Substring, before next: Character) -> Bool {
        if next.isLowercase || next.isNumber { return false }
        var body = text[...]
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
