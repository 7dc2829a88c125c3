/// Text in Apertium's stream format, ready for a pipeline, with the places where it may be cut.
///
/// Apertium's stream format: words are plain UTF-8 with the special characters backslash-escaped;
/// everything that is not to be translated (whitespace runs, HTML tags, entities) travels as a
/// *superblank* `[...]` that every stage passes through unchanged and in order; `.[]` marks a
/// forced sentence end that the reformatter removes again.
struct DeformattedText: Sendable, Equatable {
    /// The stream bytes.
    var bytes: [UInt8]
    /// Offsets where a chunk may end: right after a blank group (so the blank travels with the
    /// words before it), never inside an escape or a superblank. Ascending; the last is the end.
    var breaks: [Int]
    /// The subset of `breaks` that also end a sentence (after `.[]`, or after `.`, `!`, `?` and a
    /// blank). Ascending.
    var sentenceBreaks: [Int]
    /// The input's own spelling of the words that went out in NFC.
    var wordForms = WordForms()

    /// The stream as a string, for tests and diagnostics.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// ASCII bytes the formats use, named for readability.
enum Byte {
    static let nul: UInt8 = 0x00
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let bang: UInt8 = 0x21
    static let dollar: UInt8 = 0x24
    static let ampersand: UInt8 = 0x26
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let semicolon: UInt8 = 0x3B
    static let less: UInt8 = 0x3C
    static let greater: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let caret: UInt8 = 0x5E
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    static let tilde: UInt8 = 0x7E

    /// Blank characters as apertium-destxt and apertium-deshtml count them (`space-chars` in
    /// txt-format.xml and html-format.xml: `[ \n\t\r~]`). `~` is one because inside a word it
    /// would reach the post-generator, for which a `~` marks a word to rewrite (and deletes it).
    static func isBlank(_ b: UInt8) -> Bool {
        b == space || b == newline || b == tab || b == carriageReturn || b == tilde
    }
}
