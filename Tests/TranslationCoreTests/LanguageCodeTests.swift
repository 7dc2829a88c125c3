import Testing
@testable import TranslationCore

@Suite("LanguageCode parsing and conversion")
struct LanguageCodeTests {
    @Test("every spelling of a language parses to one value",
          arguments: [("en", "en"), ("eng", "en"), ("EN", "en"), ("en-US", "en-US"), ("en_us", "en-US"),
                      ("eng_US", "en-US"), ("spa", "es"), ("nob", "nb"), ("fre", "fr"), ("ger", "de"),
                      ("pt-BR", "pt-BR"), ("pt_BR", "pt-BR"), ("zh-Hant-TW", "zh-Hant-TW"),
                      ("iw", "he"), ("jw", "jv"), ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"),
                      ("hbs", "hbs"), ("cat_valencia", "ca-valencia"), ("ca-valencia", "ca-valencia"),
                      ("cat_valencia_uni_iec2017", "ca-valencia-uni-iec2017"), ("ast", "ast"), (" es ", "es")])
    func parses(_ input: String, _ bcp47: String) throws {
        #expect(try LanguageCode(parsing: input).bcp47 == bcp47)
    }

    @Test("Apertium spellings round-trip",
          arguments: ["eng", "spa", "cat", "por", "glg", "fra", "eng_US", "pt_BR", "cat_valencia",
                      "cat_iec2017", "cat_valencia_uni_iec2017", "hbs", "nob", "oci", "arg", "ast"])
    func apertiumRoundTrip(_ code: String) throws {
        let parsed = try LanguageCode(parsing: code)
        #expect(try LanguageCode(parsing: parsed.apertiumCode) == parsed)
        #expect(try LanguageCode(parsing: parsed.bcp47) == parsed)
        if code.count == 3 { #expect(parsed.apertiumCode == code) }
    }

    @Test("Google codes", arguments: [("he", "iw"), ("zh-Hans", "zh-CN"), ("zh-Hant-TW", "zh-TW"), ("zh-TW", "zh-TW"),
                                      ("en", "en"), ("pt-BR", "pt-BR"), ("jv", "jw")])
    func googleCodes(_ input: String, _ google: String) throws {
        #expect(try LanguageCode(parsing: input).googleCode == google)
    }

    @Test("malformed and unknown codes say what was given and what is accepted",
          arguments: ["", "x", "xx", "english", "en--US", "e1", "en-US-", "qqq", "en US", "ñu", "en-toolongvariantx"])
    func rejects(_ input: String) {
        #expect {
            try LanguageCode(parsing: input)
        } throws: { error in
            guard let e = error as? TranslationError, e.kind == .invalidLanguage else { return false }
            return e.message.contains("'\(input)'") && e.message.contains("Accepted:")
        }
    }

    @Test("display names come from Foundation in any language")
    func displayNames() throws {
        #expect(LanguageCode("en").displayName(in: "es") == "inglés")
        #expect(LanguageCode("es").displayName(in: "en") == "Spanish")
        #expect(LanguageCode("ca").displayName(in: "ca") == "català")
        #expect(LanguageCode("pt-BR").displayName(in: "en").contains("Brazil"))
        #expect(LanguageCode("hbs").displayName(in: "en") == "Serbo-Croatian")
        #expect(!LanguageCode("ca-valencia").displayName(in: "en").isEmpty)
    }

    @Test("base drops script, region and variants")
    func base() {
        #expect(LanguageCode("eng_US").base == LanguageCode("en"))
        #expect(LanguageCode("en").isBase)
        #expect(!LanguageCode("pt-BR").isBase)
    }

    @Test("pairs parse from Apertium mode names and AJAX langpairs")
    func pairs() throws {
        #expect(try LanguagePair(parsing: "eng-spa") == LanguagePair(source: "en", target: "es"))
        #expect(try LanguagePair(parsing: "es-pt_BR").target == LanguageCode("pt-BR"))
        #expect(try LanguagePair(parsing: "en|ja").target == LanguageCode("ja"))
        #expect(try LanguagePair(parsing: "eng-cat_valencia").apertiumName == "eng-cat_valencia")
        #expect(throws: TranslationError.self) { try LanguagePair(parsing: "eco-es-fr") }
    }

    @Test("format parsing")
    func formats() throws {
        #expect(try TextFormat(parsing: "HTML") == .html)
        #expect(try TextFormat(parsing: "text") == .text)
        #expect(throws: TranslationError.self) { try TextFormat(parsing: "markdown") }
    }

    @Test("errors have bounded metric labels")
    func labels() {
        #expect(TranslationError(.unsupportedPair, "x").shortDescription == "unsupported_pair")
    }
}
