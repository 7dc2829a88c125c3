import Testing
@testable import TranslationCore

/// Names tell every code apart, in any display language ICU has, with ICU's own words where it
/// has them and the tables' where it does not.
@Suite struct DisplayNameTests {
    @Test func variantsOfOneLanguageHaveNamesOfTheirOwn() throws {
        let catalan = ["ca", "ca-valencia", "cat_iec2017", "cat_pre2017", "cat_valencia_iec2017", "cat_valencia_uni", "cat_valencia_uni_iec2017"]
        let names = try catalan.map { try LanguageCode(parsing: $0).displayName(in: "en") }
        #expect(Set(names).count == names.count, "\(names)")
        #expect(try LanguageCode(parsing: "cat_iec2017").displayName(in: "en") == "Catalan (IEC 2017 spelling)")
        // ICU's words first, inside ICU's parentheses.
        #expect(try LanguageCode(parsing: "cat_valencia_iec2017").displayName(in: "en") == "Catalan (Valencian, IEC 2017 spelling)")
        #expect(try LanguageCode(parsing: "cat_valencia_iec2017").displayName(in: "es") == "catalán (Valenciano, IEC 2017 spelling)")
    }

    @Test func serboCroatianIsLocalizedAndItsStandardsAreLanguagesNotCountries() throws {
        #expect(LanguageCode("hbs").displayName(in: "en") == "Serbo-Croatian")
        #expect(LanguageCode("hbs").displayName(in: "es") == "serbocroata")
        #expect(LanguageCode("hbs").displayName(in: "fr") == "serbo-croate")
        #expect(try LanguageCode(parsing: "hbs_HR").displayName(in: "en") == "Serbo-Croatian (Croatian)")
        #expect(try LanguageCode(parsing: "hbs_BS").displayName(in: "en") == "Serbo-Croatian (Bosnian)")
        #expect(try LanguageCode(parsing: "hbs_SR").displayName(in: "es") == "serbocroata (serbio)")
    }

    @Test func whatICUKnowsIsUnchanged() throws {
        #expect(LanguageCode("en").displayName(in: "es") == "inglés")
        #expect(LanguageCode("pt-BR").displayName(in: "en") == "Portuguese (Brazil)")
        #expect(LanguageCode("ca-valencia").displayName(in: "en") == "Catalan (Valencian)")
        #expect(LanguageCode("zh-Hant").displayName(in: "en") == "Chinese, Traditional")
        #expect(try LanguageCode(parsing: "oci_gascon").displayName(in: "en") == "Occitan (Gascon)")
    }
}
