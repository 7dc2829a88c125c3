import TranslationCore

/// Plain text → Apertium stream, matching Debian's `apertium-destxt` byte for byte (see
/// `DeformatterTests`), but as a function: Debian's deformatters buffer until end of input and
/// cannot run warm in a null-flush pipeline, so Glossa deformats in-process.
enum TextDeformatter {
    /// Characters that have a meaning in the stream and are backslash-escaped in words.
    static func needsEscape(_ b: UInt8) -> Bool {
        switch b {
        case Byte.openBracket, Byte.closeBracket, Byte.backslash, Byte.slash, Byte.at, Byte.less,
             Byte.greater, Byte.caret, Byte.dollar, Byte.openBrace, Byte.closeBrace:
            return true
        default:
            return false
        }
    }

    /// Deformats `text`; its placeholders, and each term of `glossary` found in it, travel as
    /// superblanks (``ProtectedSpans``). With `placeholders` false, placeholders are text, as
    /// `apertium-destxt` reads them.
    /// With `newlinesEndSentences` false, an empty line does not end a sentence (DeepL's `split_sentences=nonewlines`).
    static func deformat(_ text: String, glossary: Glossary? = nil, placeholders: Bool = true,
                         newlinesEndSentences: Bool = true) -> DeformattedText {
        var utf8 = Array(text.utf8)
        let spans = ProtectedSpan.find(in: utf8, format: .text, glossary: glossary, placeholders: placeholders)
        return utf8.withUnsafeMutableBufferPointer { deformat(bytes: UnsafeBufferPointer($0), spans: spans, newlinesEndSentences: newlinesEndSentences) }
    }

    static func deformat(bytes input: UnsafeBufferPointer<UInt8>, spans found: [ProtectedSpan] = [], newlinesEndSentences: Bool = true) -> DeformattedText {
        var builder = StreamBuilder(capacity: input.count, escape: needsEscape)
        var spans = ProtectedSpans(found, source: { Array(input[$0]) }, render: { $0 })
        var i = 0
        while i < input.count {
            let b = input[i]
            if let end = spans.place(at: i, into: &builder) {
                i = end
            } else if Byte.isBlank(b) {
                var j = i
                while j < input.count && Byte.isBlank(input[j]) { j += 1 }
                let run = input[i..<j]
                builder.appendBlank(run, endsSentence: newlinesEndSentences && endsParagraph(run), escape: { _ in false })
                i = j
            } else if b == Byte.nul {
                // A NUL would end the request frame early: it travels as a marker instead.
                builder.appendRawBlank(Reformatter.nulToken)
                i += 1
            } else {
                builder.appendWordByte(b)
                i += 1
            }
        }
        return builder.finish()
    }

    /// A blank run that holds an empty line ends a paragraph, hence a sentence (destxt's
    /// `("\n\n"|"\r\n\r\n")+` rule).
    private static func endsParagraph(_ run: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard run.count >= 2 else { return false }
        let a = Array(run)
        for k in 1..<a.count where a[k - 1] == Byte.newline && a[k] == Byte.newline { return true }
        guard a.count >= 4 else { return false }
        for k in 3..<a.count where a[k - 3] == Byte.carriageReturn && a[k - 2] == Byte.newline
            && a[k - 1] == Byte.carriageReturn && a[k] == Byte.newline { return true }
        return false
    }
}
