/// Apertium stream → text or HTML, as `apertium-retxt` / `apertium-rehtml` do: escapes are
/// undone, superblanks give back their contents, and the `.[]` sentence ends that the
/// deformatter added disappear.
enum Reformatter {
    /// How a NUL of the input travels through a pipeline: inside a superblank as an *unescaped*
    /// `/0`. Deformatters escape every real `/` inside superblanks, so this cannot be user text.
    static let nulToken: [UInt8] = [Byte.slash, Byte.zero]

    /// Reformats a translated stream. Text and HTML streams reformat the same way: the HTML
    /// markup travelled verbatim inside superblanks. Words outside superblanks get the input's
    /// own Unicode form back from `wordForms`.
    static func reformat(_ stream: [UInt8], wordForms: WordForms = WordForms()) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(stream.count)
        var i = 0
        var depth = 0 // superblank nesting: `[[...]]` word-bound blanks hold a superblank
        // Where the text outside superblanks that is not yet restored begins in `out`.
        var wordsStart = 0
        func restoreWords() {
            guard !wordForms.isEmpty, wordsStart < out.count else { return }
            let restored = wordForms.restore(String(decoding: out[wordsStart...], as: UTF8.self))
            out.replaceSubrange(wordsStart..., with: restored.utf8)
        }
        while i < stream.count {
            let b = stream[i]
            if b == Byte.backslash && i + 1 < stream.count {
                out.append(stream[i + 1])
                i += 2
                continue
            }
            if depth > 0 {
                if b == Byte.closeBracket {
                    depth -= 1
                    if depth == 0 { wordsStart = out.count }
                } else if b == Byte.openBracket {
                    depth += 1
                } else if b == Byte.slash && i + 1 < stream.count && stream[i + 1] == Byte.zero {
                    out.append(Byte.nul)
                    i += 1
                } else {
                    out.append(b)
                }
            } else if b == Byte.openBracket {
                if i + 1 < stream.count && stream[i + 1] == Byte.closeBracket {
                    // `[]` marks the sentence end the deformatter forced; drop its period too.
                    if out.last == Byte.period { out.removeLast() }
                    i += 2
                    continue
                }
                restoreWords()
                depth = 1
            } else {
                out.append(b)
            }
            i += 1
        }
        if depth == 0 { restoreWords() }
        return String(decoding: out, as: UTF8.self)
    }
}
