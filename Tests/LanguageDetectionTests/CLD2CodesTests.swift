import Testing
import TranslationCore
@testable import LanguageDetection

@Suite struct CLD2CodesTests {
    @Test func cld2SpellingsBecomeLanguageCodes() {
        #expect(CLD2Codes.language(fromCLD2: "en") == "en")
        #expect(CLD2Codes.language(fromCLD2: "iw") == "he")
        #expect(CLD2Codes.language(fromCLD2: "no") == "nb")
        #expect(CLD2Codes.language(fromCLD2: "nn") == "nn")
        #expect(CLD2Codes.language(fromCLD2: "zh") == LanguageCode(language: "zh", script: "Hans"))
        #expect(CLD2Codes.language(fromCLD2: "zh-Hant") == LanguageCode(language: "zh", script: "Hant"))
        #expect(CLD2Codes.language(fromCLD2: "un") == nil)
        #expect(CLD2Codes.language(fromCLD2: "xx-Qaai") == nil)
    }

    /// The table read once from CLD2 holds every code it answers with, and each means there what
    /// it means on its own.
    @Test func everyCLD2CodeIsInTheTable() {
        let codes = CLD2.languageCodes
        #expect(codes.count > 160)
        for code in ["en", "iw", "no", "zh-Hant", "un", "eo", "oc", "ne"] { #expect(codes.contains(code)) }
        #expect(CLD2Codes.language(fromCLD2: "ne") == "ne")
        #expect(CLD2Codes.language(fromCLD2: "not-a-cld2-code-1") == nil)
    }

    @Test func hintsUseCLD2Spellings() {
        #expect(CLD2Codes.cld2Code(for: "he") == "iw")
        #expect(CLD2Codes.cld2Code(for: "nb") == "no")
        #expect(CLD2Codes.cld2Code(for: "zh-TW") == "zh-Hant")
        #expect(CLD2Codes.cld2Code(for: "zh-Hant") == "zh-Hant")
        #expect(CLD2Codes.cld2Code(for: "zh-CN") == "zh")
        #expect(CLD2Codes.cld2Code(for: "pt-BR") == "pt")
    }

    /// Every code CLD2 hands back for a hint it was given maps back to the hinted language.
    @Test(arguments: ["en", "es", "he", "nb", "zh-Hant", "zh-Hans", "ca", "gl"])
    func hintRoundTrips(code: String) {
        let language = LanguageCode(stringLiteral: code)
        let back = CLD2Codes.language(fromCLD2: CLD2Codes.cld2Code(for: language))
        #expect(back?.language == language.language)
    }
}
