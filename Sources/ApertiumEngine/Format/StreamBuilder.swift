import TranslationCore

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
    /// The last word written (unescaped): whether the blank after it ends a sentence is decided
    /// by it and the word after the blank (``SentenceBoundary``).
    private var previousWord: [UInt8] = []
    /// The break after `previousWord`, a sentence break if the next word agrees.
    private var candidateSentenceBreak: Int?

    init(capacity: Int, escape: @escaping (UInt8) -> Bool) {
        self.escape = escape
        bytes.reserveCapacity(capacity + capacity / 8 + 16)
    }

    /// Appends one byte of a word.
    mutating func appendWordByte(_ byte: UInt8) {
        flushBlank()
        word.append(byte)
    }

    /// Writes the collected word, composed and escaped.
    private mutating func flushWord() {
        guard !word.isEmpty else { return }
        if let candidate = candidateSentenceBreak {
            candidateSentenceBreak = nil
            if let next = String(decoding: word.prefix(8), as: UTF8.self).first,
               SentenceBoundary.endsSentence(Substring(String(decoding: previousWord, as: UTF8.self)), before: next) {
                sentenceBreaks.append(candidate)
            }
        }
        for b in wordForms.composing(word) {
            if escape(b) { bytes.append(Byte.backslash) }
            bytes.append(b)
        }
        swap(&previousWord, &word)
        word.removeAll(keepingCapacity: true)
    }

    /// Whether `word` can end a sentence at all: its last byte is one of ``SentenceBoundary``'s
    /// ASCII marks or closers, or part of a non-ASCII character (`…`, `。`, `”`). Keeps the full
    /// rule off most words.
    private static func mayEndSentence(_ word: [UInt8]) -> Bool {
        guard let last = word.last else { return false }
        return last >= 0x80 || asciiSentenceEnders[Int(last)]
    }

    /// Per ASCII byte: a terminator or closer of ``SentenceBoundary`` (derived, so the two agree).
    private static let asciiSentenceEnders: [Bool] = (0..<128).map { byte in
        let c = Character(Unicode.Scalar(UInt8(byte)))
        return SentenceBoundary.terminators.contains(c) || SentenceBoundary.closers.contains(c)
    }

    /// Adds raw bytes to the pending blank group; `endsSentence` marks a group that gets `.[]`.
    mutating func appendBlank<C: Collection<UInt8>>(_ content: C, endsSentence: Bool, escape: (UInt8) -> Bool) {
        flushWord()
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
        // A paragraph break or the like always ends a sentence; a mark does only where
        // ``SentenceBoundary`` says so, once the next word is known: the chunker cuts at sentence
        // breaks, and a cut where the pipeline sees none (`U.S. says`, `8:46 a.m. a hush`) would
        // end a sentence there and change the translation around it.
        if pendingEndsSentence {
            sentenceBreaks.append(bytes.count)
        } else if Self.mayEndSentence(previousWord) {
            candidateSentenceBreak = bytes.count
        }
        pending.removeAll(keepingCapacity: true)
        pendingEndsSentence = false
    }

    /// Closes the stream: `.[]` before the trailing group, as the Debian deformatters do.
    mutating func finish() -> DeformattedText {
        flushWord()
        pendingEndsSentence = true
        flushBlank()
        return DeformattedText(bytes: bytes, breaks: breaks, sentenceBreaks: sentenceBreaks, wordForms: wordForms)
    }
}
