import Foundation

/// Cuts lines of running text into test items as lingua's accuracy reports do (lingua-rs
/// `src/writer.rs`, `TestDataFilesWriter`; read, not copied): sentences are the lines with
/// whitespace collapsed and double quotes removed; single words are the lower-cased words (after
/// punctuation and numbers are removed) that hold a run of at least five letters; word pairs are
/// those words taken two at a time. At most `limit` items of each kind.
struct HeldOutCuts {
    /// The three kinds, in lingua's order and with its file names.
    enum Kind: String, CaseIterable {
        case singleWords = "single-words", wordPairs = "word-pairs", sentences = "sentences"
    }

    var sentences: [String] = []
    var singleWords: [String] = []
    var wordPairs: [String] = []

    subscript(kind: Kind) -> [String] {
        switch kind {
        case .singleWords: return singleWords
        case .wordPairs: return wordPairs
        case .sentences: return sentences
        }
    }

    init(lines: [Substring], limit: Int = 1000) {
        var words: [String] = []
        for line in lines {
            let collapsed = Self.collapseWhitespace(String(line)).replacingOccurrences(of: "\"", with: "")
            if collapsed.isEmpty { continue }
            if sentences.count < limit { sentences.append(collapsed) }
            var stripped = String.UnicodeScalarView()
            for scalar in line.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                     .initialPunctuation, .finalPunctuation, .otherPunctuation,
                     .decimalNumber, .letterNumber, .otherNumber:
                    continue
                default:
                    stripped.append(scalar)
                }
            }
            for word in Self.collapseWhitespace(String(stripped)).split(separator: " ") {
                let lower = word.lowercased()
                if Self.hasFiveLetterRun(lower) { words.append(lower) }
            }
        }
        singleWords = Array(words.prefix(limit))
        var pairs: [String] = []
        var index = 0
        while index + 1 < words.count && pairs.count < limit {
            pairs.append(words[index] + " " + words[index + 1])
            index += 2
        }
        wordPairs = pairs
    }

    private static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// lingua's `[\p{L}]{5,}` match, with marks counted as letters (so Devanagari and other
    /// scripts whose vowels are marks qualify as they read).
    private static func hasFiveLetterRun(_ word: String) -> Bool {
        var run = 0
        for scalar in word.unicodeScalars {
            if TextFeatures.isWordScalar(scalar) {
                run += 1
                if run >= 5 { return true }
            } else {
                run = 0
            }
        }
        return false
    }
}
