import Testing
@testable import LanguageDetection

@Suite struct NGramFeaturesTests {
    private func grams(_ text: String, limit: Int = .max) -> [String] {
        var out: [String] = []
        NGramFeatures.forEach(in: text, letterLimit: limit) { out.append($0) }
        return out
    }

    @Test func wordIsFramedAndCutIntoOneToFourGrams() {
        #expect(grams("Hi!") == ["h", "_h", "i", "hi", "_hi", "i_", "hi_", "_hi_"])
    }

    @Test func digitsPunctuationAndEmojiAreNotFeatures() {
        #expect(grams("123 ... 😀 !?").isEmpty)
        #expect(grams("a1b") == grams("a b"))
    }

    @Test func caseAndNormalizationDoNotMatter() {
        // Decomposed "é" (e + U+0301) and precomposed "é" give the same features.
        #expect(grams("CAFÉ") == grams("cafe\u{301}"))
    }

    @Test func combiningMarksStayInsideTheWord() {
        // Devanagari "हिंदी": vowel signs are marks; the word must not split at them.
        #expect(grams("हिंदी").contains("_हि"))
        #expect(!grams("हिंदी").contains("_ि"))
    }

    @Test func keysDependOnEveryScalarAndItsOrder() {
        let keys = ["ab", "ba", "a", "b", "abc", "_a", "a_"].map { NGramFeatures.key($0.unicodeScalars) }
        #expect(Set(keys).count == keys.count)
        #expect(NGramFeatures.key("ab".unicodeScalars) == NGramFeatures.key(["a", "b"] as [Unicode.Scalar]))
    }

    @Test func letterLimitBoundsTheWork() {
        let long = String(repeating: "abc ", count: 1000)
        #expect(grams(long, limit: 3).count == grams("abc").count)
    }
}
