import Testing
import TranslationCore
@testable import LanguageDetection

@Suite struct ConversationalWordsTests {
    @Test func listedWordsBecomePriorsForEveryLanguageListingThem() {
        let priors = ConversationalWords.priors(for: "¡Hola, amigo!")
        #expect(Set(priors.map(\.0)) == ["es", "ca", "ast"])
        #expect(priors.allSatisfy { $0.1 == ConversationalWords.odds })
    }

    @Test func caseAndNormalizationDoNotMatter() {
        #expect(ConversationalWords.priors(for: "MERCI").map(\.0) == ["fr"])
        #expect(ConversationalWords.priors(for: "ola\u{301}").map(\.0) == ["pt"])  // "olá", decomposed
    }

    @Test func longTextGetsNoPriors() {
        #expect(ConversationalWords.priors(for: "thanks for all the fish and the many years of service to us").isEmpty)
    }

    @Test func everyListedLanguageIsOneTheFallbackModels() {
        let detector = NGramDetector()
        for language in ConversationalWords.lists.keys { #expect(detector.models(language), "\(language)") }
    }

    /// Words the news-domain n-grams alone get wrong ("Hola" reads as Basque, "Привет" as
    /// Macedonian); with the lists they come out right.
    @Test(arguments: [("Привет", "ru"), ("Ciao", "it"), ("Merci beaucoup", "fr"), ("Hello", "en")])
    func conversationalWordsAreDetected(text: String, expected: String) {
        #expect(NGramDetector().detection(for: text, hint: nil).language == LanguageCode(stringLiteral: expected))
    }

    /// "Hola" is Spanish, Catalan and Asturian: the answer is one of them, never Basque.
    @Test func sharedWordNarrowsToTheLanguagesListingIt() {
        let result = NGramDetector().detection(for: "Hola", hint: nil)
        #expect(["es", "ca", "ast"].contains(result.language?.language ?? ""))
    }
}
