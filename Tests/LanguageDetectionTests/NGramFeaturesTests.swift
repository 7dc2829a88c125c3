import Testing
@testable import LanguageDetection

@Suite struct NGramFeaturesTests {
    private func grams(_ text: String, limit: Int = .max) -> [String] {
        var out: [String] = []
        NGramFeatures.forEach(in: text, letterLimit: limit) { out.append($0) }
        return out
    }

    @Test func wordIsFramedAndCutIntoOneToFourGrams() {
        #expect(grams("Hi!") == ["_h", "_hi", "_hi_", "h", "hi", "hi_", "i", "i_"])
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

    @Test func letterLimitBoundsTheWork() {
        let long = String(repeating: "abc ", count: 1000)
        #expect(grams(long, limit: 3).count == grams("abc").count)
    }
}
