import TranslationCore

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
    /// Whether the translation is reformatted into text or HTML (the default), or handed back as
    /// the pipeline wrote it, in the stream format (APy's `/translateRaw`).
    var reformats = true
    /// Whether the stream lacks the deformatter's closing `.[]`, which a pipeline needs: a frame
    /// with no word in it (`\^` alone) makes lrx-proc answer without its NUL, and the pipeline
    /// loses its framing. The translator adds one and removes it from the answer.
    var needsSentenceEnd = false

    /// `stream` as it is, already in the stream format: one chunk (a cut could fall inside a
    /// lexical unit or a superblank), not reformatted. A NUL would end the pipeline's frame
    /// early, and the stream format has no use for one: it travels as a space.
    /// - Throws: ``TranslationError`` `.invalidArgument` unless `stream` is one that a
    ///   deformatter could have written (``streamFault(_:)``): an unclosed superblank swallows
    ///   the frame's end marker, and a stray `^`, `/` or `<` makes the stages hang or drop text.
    static func rawStream(_ stream: String) throws -> DeformattedText {
        let bytes = stream.utf8.map { $0 == Byte.nul ? Byte.space : $0 }
        if let fault = streamFault(bytes) {
            throw TranslationError(.invalidArgument,
                "The text is not in Apertium's stream format (it was sent as already deformatted): \(fault). Escape \\ [ ] ^ $ / < > @ { } with a backslash outside superblanks, close every superblank [ … ], or send it to be deformatted.")
        }
        return DeformattedText(bytes: bytes, breaks: [bytes.count], sentenceBreaks: [], reformats: false, needsSentenceEnd: true)
    }

    /// What makes `bytes` a stream no deformatter writes, or nil: outside superblanks, every
    /// character the deformatters escape (``needsEscapeInText(_:)``) is escaped; superblanks
    /// (nested ones too: `[[t:b:1]]`) are closed; no escape is cut off at the end.
    static func streamFault(_ bytes: [UInt8]) -> String? {
        var depth = 0
        var i = 0
        var character = 0  // the position in characters, for the message
        while i < bytes.count {
            let b = bytes[i]
            if b & 0xC0 != 0x80 { character += 1 }
            if b == Byte.backslash {
                guard i + 1 < bytes.count else { return "a lone \\ at the end" }
                i += 2
                continue
            }
            if b == Byte.openBracket {
                depth += 1
            } else if b == Byte.closeBracket {
                guard depth > 0 else { return "an unescaped ] at character \(character), outside a superblank" }
                depth -= 1
            } else if depth == 0, needsEscapeInText(b) {
                return "an unescaped \(Character(Unicode.Scalar(b))) at character \(character)"
            }
            i += 1
        }
        return depth > 0 ? "a superblank [ that is never closed" : nil
    }

    /// The characters apertium-destxt and apertium-deshtml escape in text, besides `[`, `]` and
    /// `\`, which open and close superblanks and escapes.
    static func needsEscapeInText(_ b: UInt8) -> Bool {
        switch b {
        case Byte.caret, Byte.dollar, Byte.slash, Byte.less, Byte.greater, Byte.at, Byte.openBrace, Byte.closeBrace: return true
        default: return false
        }
    }

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
