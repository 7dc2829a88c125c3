import Foundation

/// How the detector reads text: the one definition shared by the run-time scorer and the model
/// trainer (tests/tools/detector-model compiles this file), so that training and detection can
/// never see different features.
///
/// Text is lower-cased (and NFC-composed where it holds composable marks); every run of letters
/// and combining marks is a word, and anything else (digits, punctuation, symbols, spaces)
/// separates words. A word is framed by ``boundary`` on both sides, and its character n-grams of
/// 1...``maxOrder`` scalars are what the character model counts: "Hi" is framed `_hi_`.
enum TextFeatures {
    /// The longest character n-gram, in scalars (the model is a 4th-order Markov chain).
    static let maxOrder = 5
    /// The word frame: not a letter or mark, so it never occurs inside a word.
    static let boundary: Unicode.Scalar = "_"

    /// Calls `body` with each word of `text` (lower-cased scalars, without frames), until
    /// `letterLimit` letters have been read. The array is reused between calls.
    static func forEachWord(in text: String, letterLimit: Int = .max, _ body: ([Unicode.Scalar]) -> Void) {
        scanWords(in: text, letterLimit: letterLimit) { body($0); return true }
    }

    /// Like ``forEachWord(in:letterLimit:_:)``, stopping early when `body` returns false.
    static func scanWords(in text: String, letterLimit: Int = .max, _ body: ([Unicode.Scalar]) -> Bool) {
        var word: [Unicode.Scalar] = []
        word.reserveCapacity(32)
        var used = 0
        let source = needsComposition(text) ? text.precomposedStringWithCanonicalMapping : text
        scan: for scalar in source.unicodeScalars {
            guard isWordScalar(scalar) else {
                if !word.isEmpty {
                    guard body(word) else { return }
                    word.removeAll(keepingCapacity: true)
                }
                continue
            }
            if used >= letterLimit { break scan }
            used += 1
            if scalar.value < 0x80 {
                // ASCII letters: lower-case without Unicode tables (most text is mostly ASCII).
                word.append(scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 32)! : scalar)
            } else if ScalarClasses.of(scalar) & ScalarClasses.lowercases != 0 {
                word.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { _ = body(word) }
    }

    /// Whether NFC could change how the text reads: it holds a combining mark of the ranges that
    /// compose with a preceding letter (Latin, Greek and Cyrillic accents) or Hangul jamo. Other
    /// text is used as it is, which saves a copy of every input.
    static func needsComposition(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where scalar.value >= 0x300 {
            switch scalar.value {
            case 0x300...0x36F, 0x1100...0x11FF, 0x1DC0...0x1DFF, 0x20D0...0x20FF: return true
            default: continue
            }
        }
        return false
    }

    /// Whether the scalar belongs to a word: letters and combining marks (Devanagari vowel
    /// signs are marks, and splitting words there would destroy them).
    @inline(__always) static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 {
            let v = scalar.value | 0x20
            return v >= 0x61 && v <= 0x7A
        }
        return ScalarClasses.of(scalar) & ScalarClasses.word != 0
    }

    /// Whether the scalar is white space (Unicode White_Space).
    @inline(__always) static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return ScalarClasses.of(scalar) & ScalarClasses.whitespace != 0
    }

    /// The word framed by ``boundary`` on both sides, as the character model reads it.
    static func framed(_ word: [Unicode.Scalar], into buffer: inout [Unicode.Scalar]) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(boundary)
        buffer.append(contentsOf: word)
        buffer.append(boundary)
    }

    /// Calls `body(end, order, key)` for every n-gram of a framed word: the n-gram of `order`
    /// scalars that ends at index `end`. The opening frame alone (end 0) is only ever a context
    /// (its back-off weight is used); the scorer predicts indices 1 and up. Keys are
    /// ``gramKey(_:)`` of the n-gram's scalars.
    /// `prefix` is the key of the n-gram without its last scalar (its context; unused for order 1).
    static func forEachGram(inFramed framed: [Unicode.Scalar],
                            _ body: (_ end: Int, _ order: Int, _ key: UInt64, _ prefix: UInt64) -> Void) {
        for start in 0..<framed.count {
            var hash = fnvOffset
            for order in 1...maxOrder {
                let end = start + order - 1
                guard end < framed.count else { break }
                let prefix = hash
                hash = extend(hash, with: framed[end].value)
                body(end, order, hash, prefix)
            }
        }
    }

    /// The key of an n-gram: 64-bit FNV-1a over its scalar values. Stable across runs and
    /// machines (unlike `Hasher`), and cheap to extend one scalar at a time (``extend(_:with:)``).
    static func gramKey<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> UInt64 {
        var hash = fnvOffset
        for scalar in scalars { hash = extend(hash, with: scalar.value) }
        return hash
    }

    /// The key of an n-gram extended by one scalar, from the key of the n-gram without it.
    @inline(__always) static func extend(_ key: UInt64, with scalar: UInt32) -> UInt64 {
        (key ^ UInt64(scalar)) &* fnvPrime
    }

    /// The key of a whole word in the word table: FNV-1a from a different offset than n-grams,
    /// so a word and an n-gram of the same letters never share a key.
    static func wordKey<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> UInt64 {
        var hash = fnvOffset ^ 0x5757_5757_5757_5757
        for scalar in scalars { hash = (hash ^ UInt64(scalar.value)) &* fnvPrime }
        return hash
    }

    private static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3
}
