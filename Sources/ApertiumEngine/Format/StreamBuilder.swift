/// Builds an Apertium stream the way Debian's `apertium-destxt` and `apertium-deshtml` do, so
/// that pipelines see exactly what the `apertium` command would feed them.
///
/// The rules, checked against the real tools in `DeformatterTests`:
/// - consecutive blanks (whitespace, tags, entities, comments) merge into one group; a group that
///   is exactly one space stays a plain space, any other group becomes one superblank `[...]`;
/// - a group holding a sentence-ending blank (two newlines in text, `<p>`, `<br>`… in HTML) is
///   preceded by `.[]`, which forces the tagger and transfer to end the sentence there;
/// - at the end of input, `.[]` goes before the trailing group unless that group already had one.
///
/// Words are collected whole before they are written, so that each goes out in NFC (see
/// ``WordForms``) and escaped with the format's `escape`.
struct StreamBuilder {
    private(set) var bytes: [UInt8] = []
    /// Which word bytes get a backslash in this format.
    private let escape: (UInt8) -> Bool
    /// The word being collected, unescaped.
    private var word: [UInt8] = []
    private var wordForms = WordForms()
    private var breaks: [Int] = []
    private var sentenceBreaks: [Int] = []
    /// Raw contents of the blank group being collected (already escaped for a superblank).
    private var pending: [UInt8] = []
    /// Whether the pending group ends a sentence.
    private var pendingEndsSentence = false
    /// Whether the last word ended in `.`, `!` or `?`, so the next blank is a sentence break.
    private var lastWordEndsSentence = false
    /// Bytes of the current word, to know whether it ends a sentence.
    private var lastWordByte: UInt8 = 0
    /// Whether the last word looks like an abbreviation (see ``couldEndSentence(_:)``).
    private var lastWordIsAbbreviation = false
    /// A break after `.`, `!` or `?` that becomes a sentence break once the next word is seen
    /// to start with a capital letter.
    private var candidateSentenceBreak: Int?

    init(capacity: Int, escape: @escaping (UInt8) -> Bool) {
        self.escape = escape
        bytes.reserveCapacity(capacity + capacity / 8 + 16)
    }

    /// Appends one byte of a word.
    mutating func appendWordByte(_ byte: UInt8) {
        flushBlank()
        word.append(byte)
        lastWordByte = byte
    }

    /// Writes the collected word, composed and escaped.
    private mutating func flushWord() {
        guard !word.isEmpty else { return }
        if let candidate = candidateSentenceBreak {
            if Self.startsWithCapital(word) { sentenceBreaks.append(candidate) }
            candidateSentenceBreak = nil
        }
        lastWordIsAbbreviation = Self.looksLikeAbbreviation(word)
        for b in wordForms.composing(word) {
            if escape(b) { bytes.append(Byte.backslash) }
            bytes.append(b)
        }
        word.removeAll(keepingCapacity: true)
    }

    /// Adds raw bytes to the pending blank group; `endsSentence` marks a group that gets `.[]`.
    mutating func appendBlank<C: Collection<UInt8>>(_ content: C, endsSentence: Bool, escape: (UInt8) -> Bool) {
        flushWord()
        if pending.isEmpty && !pendingEndsSentence {
            // The word before this group ended here: remember whether it closed a sentence.
            lastWordEndsSentence = lastWordByte == Byte.period || lastWordByte == Byte.bang || lastWordByte == Byte.question
        }
        for b in content {
            if b == Byte.nul {
                // A NUL would end the request frame early (one can hide in a comment or script).
                pending += Reformatter.nulToken
                continue
            }
            if escape(b) { pending.append(Byte.backslash) }
            pending.append(b)
        }
        pendingEndsSentence = pendingEndsSentence || endsSentence
    }

    /// Adds an unescaped marker to the pending group (the NUL token of `Reformatter`).
    mutating func appendRawBlank(_ content: [UInt8]) {
        appendBlank([UInt8](), endsSentence: false, escape: { _ in false })
        pending += content
    }

    /// Writes the pending group into the stream.
    private mutating func flushBlank() {
        guard !pending.isEmpty || pendingEndsSentence else { return }
        if pendingEndsSentence { bytes += [Byte.period, Byte.openBracket, Byte.closeBracket] }
        if pending == [Byte.space] {
            bytes.append(Byte.space)
        } else if !pending.isEmpty {
            bytes.append(Byte.openBracket)
            bytes += pending
            bytes.append(Byte.closeBracket)
        }
        breaks.append(bytes.count)
        // A paragraph break or the like always ends a sentence; a `.`, `!` or `?` does only
        // when the next word starts with a capital and the word is no abbreviation: the chunker
        // cuts at sentence breaks, and a cut where the pipeline sees none (`U.S. says`,
        // `8:46 a.m. a hush`) would end a sentence there and change the translation around it.
        if pendingEndsSentence {
            sentenceBreaks.append(bytes.count)
        } else if lastWordEndsSentence && !lastWordIsAbbreviation {
            candidateSentenceBreak = bytes.count
        }
        pending.removeAll(keepingCapacity: true)
        pendingEndsSentence = false
        lastWordByte = 0
    }

    /// Whether `word` (UTF-8) starts with an upper- or titlecase letter.
    static func startsWithCapital(_ word: [UInt8]) -> Bool {
        guard let first = String(decoding: word.prefix(4), as: UTF8.self).unicodeScalars.first else { return false }
        return first.properties.isUppercase || first.properties.generalCategory == .titlecaseLetter
    }

    /// Whether `word`, ending in `.`, `!` or `?`, may be an abbreviation rather than a sentence's
    /// last word: a `.` inside it (`U.S.`, `a.m.`, `e.g.`) or at most three letters before the
    /// mark (`Mr.`, `Dr.`, `vs.`, `No.`). Erring this way only makes a chunk longer.
    static func looksLikeAbbreviation(_ word: [UInt8]) -> Bool {
        let body = word.dropLast()
        return body.contains(Byte.period) || String(decoding: body, as: UTF8.self).count <= 3
    }

    /// Closes the stream: `.[]` before the trailing group, as the Debian deformatters do.
    mutating func finish() -> DeformattedText {
        flushWord()
        pendingEndsSentence = true
        flushBlank()
        return DeformattedText(bytes: bytes, breaks: breaks, sentenceBreaks: sentenceBreaks, wordForms: wordForms)
    }
}
