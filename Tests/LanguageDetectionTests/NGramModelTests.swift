import Testing
import TranslationCore
@testable import LanguageDetection

/// The model's parsing and scoring, on small hand-made profiles.
@Suite struct NGramModelTests {
    /// Two Latin languages with disjoint n-grams, and one Cyrillic.
    static let profiles = """
    @en Latn 100
    _t:20 th:20 he:20 the:20 _the:10 e_:10
    @fr Latn 100
    _l:20 le:20 le_:20 _le:20 _le_:10 e_:10
    @ru Cyrl 50
    _д:25 да:25
    """

    @Test func parsesLanguagesAndScripts() throws {
        let model = try NGramModel(serialized: Self.profiles)
        #expect(model.languages == ["en", "fr", "ru"])
        #expect(model.scripts == [[.latin], [.latin], [.cyrillic]])
    }

    @Test func scoresFavourTheLanguageWhoseGramsOccur() throws {
        let model = try NGramModel(serialized: Self.profiles)
        let (the, theGrams) = model.scores("the")
        #expect(theGrams > 0)
        #expect(the[0] > the[1])
        let (le, _) = model.scores("le")
        #expect(le[1] > le[0])
    }

    @Test func gramsNoProfileKnowsAreSkipped() throws {
        let model = try NGramModel(serialized: Self.profiles)
        let (scores, grams) = model.scores("xyz")
        #expect(grams == 0)
        #expect(scores == [0, 0, 0])
    }

    @Test(arguments: ["th:20", "@en Latn", "@en Latn many", "@en Latn 10\nth=20", "@xx-nope Latn 10"])
    func malformedProfilesThrow(text: String) {
        #expect(throws: TranslationError.self) { try NGramModel(serialized: text) }
    }

    @Test func committedProfilesLoad() {
        let model = NGramModel.shared
        #expect(model.languages.count == 35)
        #expect(model.languages.contains("en") && model.languages.contains(LanguageCode(language: "zh", script: "Hant")))
    }
}
