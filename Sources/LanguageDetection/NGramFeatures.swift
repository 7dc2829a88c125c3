import Foundation

/// The character n-grams that the short-text model counts: the one definition shared by the
/// runtime model and the profile generator (tests/tools/detector-profiles compiles this file),
/// so training and detection can never see different features.
///
/// Text is NFC-normalised and lower-cased; every run of letters and combining marks is a word;
/// each word is framed by `_` (which never occurs inside a word, since only letters and marks do)
/// and contributes its n-grams of 1...``maxLength`` scalars, except the bare frame `_`.
/// "Hi!" is framed as `_hi_` and gives `h`, `_h`, `i`, `hi`, `_hi`, `i_`, `hi_`, `_hi_`
/// (each n-gram is produced when its last scalar is read).
enum NGramFeatures {
    /// The longest n-gram, in Unicode scalars.
    static let maxLength = 4
    /// The word frame; not a letter, so it cannot collide with text.
    static let boundary: Unicode.Scalar = "_"

    /// Calls `body` with every n-gram of `text` as a slice of scalars, until `limit` letters are
    /// used (`limit` bounds the work on long input). The slice is only valid during the call:
    /// one buffer is reused for the whole text, so scoring allocates nothing per n-gram.
    static func forEachGram(in text: String, letterLimit limit: Int = .max, _ body: (ArraySlice<Unicode.Scalar>) -> Void) {
        var word: [Unicode.Scalar] = [boundary]
        var used = 0
        func push(_ scalar: Unicode.Scalar) {
            word.append(scalar)
            let end = word.count
            for length in 1...min(maxLength, end) where !(length == 1 && scalar == boundary) {
                body(word[(end - length)..<end])
            }
        }
        func endWord() {
            if word.count > 1 { push(boundary) }
            word.removeAll(keepingCapacity: true)
            word.append(boundary)
        }
        for scalar in text.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            if isWordScalar(scalar) {
                guard used < limit else { break }
                push(scalar)
                used += 1
            } else {
                endWord()
            }
        }
        endWord()
    }

    /// Every n-gram of `text` as a `String` (for the generator, which stores them as text).
    static func forEach(in text: String, letterLimit limit: Int = .max, _ body: (String) -> Void) {
        forEachGram(in: text, letterLimit: limit) { gram in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: gram)
            body(String(view))
        }
    }

    /// A 64-bit FNV-1a hash of an n-gram's scalars: how the model indexes n-grams, because
    /// hashing a `String` (which Swift normalises first) dominated scoring time. Stable across
    /// runs, unlike `Hasher`. With ~60,000 n-grams a collision has odds of about 1 in 10^10,
    /// and would only blur two n-grams' statistics.
    static func key<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for scalar in scalars {
            hash = (hash ^ UInt64(scalar.value)) &* 0x0000_0100_0000_01B3
        }
        return hash
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
