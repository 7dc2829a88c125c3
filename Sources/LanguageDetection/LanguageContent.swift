/// The part of an input that is language: its whitespace-separated tokens without those that are
/// URLs, e-mail addresses, handles, numbers, file names or code. Detection reads only this part,
/// so "see https://example.com/docs" is judged by "see", and a bare URL by nothing (`und`).
///
/// A token is *not language* when it holds a digit, `://`, a `@`, a code character
/// (``codeCharacters``), a letter directly followed by `(` (a call), or a `.` followed by a
/// letter (`example.com`, `main.swift`). A token without letters that is none of these
/// (`—`, `!!!`, an emoji) is neutral: it neither counts for nor against.
struct LanguageContent {
    /// The language tokens, space-separated.
    private(set) var text = ""
    /// Letters in ``text``.
    private(set) var letters = 0
    /// Visible characters of the language tokens over those of language and non-language
    /// tokens together, 0...1 (1 when there are neither).
    private(set) var share = 1.0
    /// Code characters anywhere in the input (also inside tokens kept as language).
    private(set) var codeCharacterCount = 0

    /// Whether the input reads as code or markup: a language share under a half, or at least
    /// two code characters and one for every twenty letters (`SELECT name FROM t WHERE id = 4;`
    /// has words, but is no prose). Such input gets a low confidence whatever its words say.
    var looksLikeCode: Bool { share < 0.5 || (codeCharacterCount >= 2 && codeCharacterCount * 20 >= letters) }

    /// Characters that occur in code, markup and identifiers, hardly ever in prose.
    static let codeCharacters: Set<Unicode.Scalar> = ["{", "}", "[", "]", "<", ">", "=", ";", "|", "\\", "/", "_", "$", "%", "^", "*", "~", "`", "+", "&", "#"]
    /// ``codeCharacters`` as a bit mask over ASCII (all of them are ASCII): asked of every
    /// scalar, where hashing into the set would cost more than the rest of the filter.
    private static let codeMask: (low: UInt64, high: UInt64) = codeCharacters.reduce((0, 0)) { mask, scalar in
        scalar.value < 64 ? (mask.low | 1 << UInt64(scalar.value), mask.high) : (mask.low, mask.high | 1 << UInt64(scalar.value - 64))
    }

    /// Whether `scalar` is one of ``codeCharacters``.
    @inline(__always) static func isCodeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        guard v < 128 else { return false }
        return (v < 64 ? codeMask.low >> UInt64(v) : codeMask.high >> UInt64(v - 64)) & 1 != 0
    }

    init(_ input: String) {
        // One pass over the scalars (splitting on whitespace scalars, not Characters: grapheme
        // segmentation would cost more than the detection itself on short text).
        var languageCharacters = 0, otherCharacters = 0
        // The kept tokens, listed only once one is dropped: until then every token is kept and
        // the input passes as it is (listing them would cost an array per call for nothing).
        var kept: [Substring]?
        let scalars = input.unicodeScalars
        var tokenStart = scalars.startIndex
        var token = TokenState()
        var index = scalars.startIndex
        func finish(at end: String.UnicodeScalarView.Index) {
            guard token.visible > 0 else { return }
            if token.marked {
                otherCharacters += token.visible
                if kept == nil { kept = Self.tokens(of: scalars[..<tokenStart]) }
            } else {
                if token.letters > 0 { languageCharacters += token.visible }
                letters += token.letters
                kept?.append(Substring(scalars[tokenStart..<end]))
            }
        }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if TextFeatures.isWhitespace(scalar) {
                finish(at: index)
                token = TokenState()
                tokenStart = scalars.index(after: index)
            } else {
                if Self.isCodeCharacter(scalar) { codeCharacterCount += 1 }
                token.add(scalar)
            }
            index = scalars.index(after: index)
        }
        finish(at: scalars.endIndex)
        // Untouched input (the common case) is passed on as it is, without a copy.
        text = kept?.joined(separator: " ") ?? input
        let total = languageCharacters + otherCharacters
        share = total == 0 ? 1 : Double(languageCharacters) / Double(total)
    }

    /// The whitespace-separated tokens of `scalars`, as the scan above delimits them.
    private static func tokens(of scalars: Substring.UnicodeScalarView) -> [Substring] {
        scalars.split(whereSeparator: TextFeatures.isWhitespace).map { Substring($0) }
    }

    /// What is known about the token being read.
    private struct TokenState {
        var visible = 0, letters = 0
        var marked = false
        var previous: Unicode.Scalar = " "
        var previousWasLetter = false

        /// A token is not language when it holds a digit, `@`, `://`, a code character, a letter
        /// directly followed by `(`, or a `.` followed by a letter after its first two scalars.
        mutating func add(_ scalar: Unicode.Scalar) {
            visible += 1
            let isLetter = TextFeatures.isWordScalar(scalar)
            if isLetter { letters += 1 }
            switch scalar {
            case "0"..."9", "@": marked = true
            case "(": if previousWasLetter { marked = true }
            default:
                if scalar.isASCII {
                    if LanguageContent.isCodeCharacter(scalar) { marked = true }
                    if scalar == "/" && previous == ":" { marked = true }
                } else if !isLetter && ScalarClasses.of(scalar) & ScalarClasses.numeric != 0 {
                    marked = true
                }
                if isLetter && previous == "." && visible > 2 { marked = true }
            }
            previous = scalar
            previousWasLetter = isLetter
        }
    }
}
