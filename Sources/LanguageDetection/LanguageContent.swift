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

    init(_ input: String) {
        var languageCharacters = 0, otherCharacters = 0
        var kept: [Substring] = []
        for scalar in input.unicodeScalars where Self.codeCharacters.contains(scalar) { codeCharacterCount += 1 }
        for token in input.split(whereSeparator: { $0.isWhitespace }) {
            let (isLanguage, visible, tokenLetters) = Self.classify(token)
            if isLanguage {
                if tokenLetters > 0 {
                    languageCharacters += visible
                    letters += tokenLetters
                }
                kept.append(token)
            } else {
                otherCharacters += visible
            }
        }
        // Untouched input (the common case) is passed on as it is, without a copy.
        text = otherCharacters == 0 ? input : kept.joined(separator: " ")
        let total = languageCharacters + otherCharacters
        share = total == 0 ? 1 : Double(languageCharacters) / Double(total)
    }

    /// Whether a token is language (or neutral), its visible scalars and its letters.
    private static func classify(_ token: Substring) -> (isLanguage: Bool, visible: Int, letters: Int) {
        var visible = 0, letters = 0
        var previous: Unicode.Scalar = " "
        var previousWasLetter = false
        var marked = false
        for scalar in token.unicodeScalars {
            visible += 1
            let isLetter = TextFeatures.isWordScalar(scalar)
            if isLetter { letters += 1 }
            switch scalar {
            case "0"..."9", "@": marked = true
            case "(": if previousWasLetter { marked = true }
            case ":": break
            default:
                if codeCharacters.contains(scalar) { marked = true }
                if scalar.properties.numericType != nil && !isLetter { marked = true }
                if isLetter && previous == "." && visible > 2 { marked = true }
                if previous == ":" && scalar == "/" { marked = true }
            }
            previous = scalar
            previousWasLetter = isLetter
        }
        return (!marked, visible, letters)
    }
}
