import Foundation

/// The character n-grams that the short-text model counts: the one definition shared by the
/// runtime model and the profile generator (tests/tools/detector-profiles compiles this file),
/// so training and detection can never see different features.
///
/// Text is NFC-normalised and lower-cased; every run of letters and combining marks is a word;
/// each word is framed by `_` (which never occurs inside a word, since only letters and marks do)
/// and contributes its n-grams of 1...``maxLength`` scalars, except the bare frame `_`.
/// "Hi!" is framed as `_hi_` and gives `_h`, `_hi`, `_hi_`, `h`, `hi`, `hi_`, `i`, `i_`.
enum NGramFeatures {
    /// The longest n-gram, in Unicode scalars.
    static let maxLength = 4
    /// The word frame; not a letter, so it cannot collide with text.
    static let boundary: Unicode.Scalar = "_"

    /// Calls `body` with every n-gram of `text`, in text order, until `limit` letters are used.
    /// `limit` bounds the work on long input; the model only runs on short or unreliable text.
    static func forEach(in text: String, letterLimit limit: Int = .max, _ body: (String) -> Void) {
        var word: [Unicode.Scalar] = []
        var used = 0
        func flush() {
            guard !word.isEmpty else { return }
            let framed = [boundary] + word + [boundary]
            for start in framed.indices {
                for length in 1...maxLength where start + length <= framed.count {
                    if length == 1 && framed[start] == boundary { continue }
                    var gram = String.UnicodeScalarView()
                    gram.append(contentsOf: framed[start..<(start + length)])
                    body(String(gram))
                }
            }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in text.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            if isWordScalar(scalar) {
                guard used < limit else { break }
                word.append(scalar)
                used += 1
            } else {
                flush()
            }
        }
        flush()
    }

    /// Whether the scalar belongs to a word: letters and combining marks (Devanagari vowel
    /// signs are marks, and splitting words there would destroy them).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}
