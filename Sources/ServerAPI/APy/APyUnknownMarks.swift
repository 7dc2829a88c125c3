/// APy's `markUnknown=no`, as APy does it: the pair's usual (marking) pipeline runs, and then
/// each `*` that starts a word is removed (`handlers/translate.py`, `unknown_mark_re =
/// [*]([^.,;:\t\* ]+)` replaced by the word). The `#` (not generated) and `@` (not in the
/// bilingual dictionary) marks stay, and words next to an unknown one come out as the marking
/// pipeline wrote them (`de *estampadoiras` → `de estampadoiras`, where the unmarked pipeline
/// elides to `d'estampadoiras`). APy's clients get APy's answer, so the APy endpoints do the same;
/// the other protocols, which never mark, run the unmarked pipeline.
enum APyUnknownMarks {
    /// The code points that end the word after a `*` (and a `*` followed by one of them, or by
    /// nothing, stays).
    private static let wordEnds: Set<Unicode.Scalar> = [".", ",", ";", ":", "\t", "*", " "]

    /// `text` with every `*` removed that APy's pattern removes.
    static func strip(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            // A match is `*` and at least one word code point; the run it takes holds no `*`, so
            // the next `*` after it is looked at afresh, as the regular expression does.
            if scalar == "*", index + 1 < scalars.count, !wordEnds.contains(scalars[index + 1]) {
                index += 1
                while index < scalars.count, !wordEnds.contains(scalars[index]) {
                    out.append(scalars[index])
                    index += 1
                }
                continue
            }
            out.append(scalar)
            index += 1
        }
        return String(out)
    }
}
