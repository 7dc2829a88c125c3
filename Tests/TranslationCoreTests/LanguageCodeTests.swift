import Testing
@testable import TranslationCore

@Suite("LanguageCode parsing and conversion")
struct LanguageCodeTests {
    @Test("every spelling of a language parses to one value",
          arguments: [("en", "en"), ("eng", "en"), ("EN", "en"), ("en-US", "en-US"), ("en_us", "en-US"),
                      ("eng_US", "en-US"), ("spa", "es"), ("nob", "nb"), ("fre", "fr"), ("ger", "de"),
                      ("pt-BR", "pt-BR"), ("pt_BR", "pt-BR"), ("zh-Hant-TW", "zh-Hant-TW"),
                      ("iw", "he"), ("jw", "jv"), ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"),
                      ("zho-TW", "zh-Hant"), ("cmn-TW", "zh-Hant"), ("chi_CN", "zh-Hans"), ("zho-Hant-TW", "zh-Hant-TW"),
                      ("hbs", "hbs"), ("cat_valencia", "ca-valencia"), ("ca-valencia", "ca-valencia"),
                      ("cat_valencia_uni_iec2017", "ca-valencia-x-uni-iec2017"), ("ca-valencia-uni-iec2017", "ca-valencia-x-uni-iec2017"),
                      ("ast", "ast"), (" es ", "es"), ("zlm", "zlm"), ("nno_e", "nn-x-e"), ("nn-x-e", "nn-x-e"),
                      ("oci_aran", "oc-x-aran"), ("oc-x-aran", "oc-x-aran"), ("oci_gascon", "oc-gascon"),
                      ("por_PTpre1990", "pt-PT-pre1990"), ("pt-PT-pre1990", "pt-PT-pre1990"), ("zh_Hant", "zh-Hant"),
                      ("cat_iec2017", "ca-iec2017"), ("hbs_SR", "hbs-SR")])
    func parses(_ input: String, _ bcp47: String) throws {
        #expect(try LanguageCode(parsing: input).bcp47 == bcp47)
    }

    @Test("Apertium spellings round-trip",
          arguments: ["eng", "spa", "cat", "por", "glg", "fra", "eng_US", "pt_BR", "cat_valencia",
                      "cat_iec2017", "cat_valencia_uni_iec2017", "hbs", "nob", "oci", "arg", "ast",
                      // Apertium's own codes that are not BCP-47 (issue 12): given back as written.
                      "zlm", "ind", "nno_e", "oci_aran", "oci_gascon", "por_PTpre1990", "cat_pre2017",
                      "hbs_BS", "eng_US", "fra", "nno", "srd", "szl"])
    func apertiumRoundTrip(_ code: String) throws {
        let parsed = try LanguageCode(parsing: code)
        #expect(try LanguageCode(parsing: parsed.apertiumCode) == parsed)
        #expect(try LanguageCode(parsing: parsed.bcp47) == parsed)
        if code.prefix(3).allSatisfy(\.isLetter), code.count == 3 || code.dropFirst(3).first == "_" {
            #expect(parsed.apertiumCode == code)
        }
    }

    @Test("Aranese is a variant, not the Nastaliq script; spelling is no part of identity")
    func apertiumVariants() throws {
        let aran = try LanguageCode(parsing: "oci_aran")
        #expect(aran.script == nil && aran.variants == ["aran"])
        #expect(try LanguageCode(parsing: "zh_Hant").script == "Hant")
        let pre1990 = try LanguageCode(parsing: "por_PTpre1990")
        #expect(pre1990.region == "PT" && pre1990.variants == ["pre1990"])
        // The same language typed another way is equal, hashes equal, and keeps its own spelling.
        let typed = try LanguageCode(parsing: "pt-PT-pre1990")
        #expect(typed == pre1990 && Set([typed, pre1990]).count == 1)
        #expect(typed.apertiumCode == "por_PT_pre1990" && pre1990.apertiumCode == "por_PTpre1990")
        #expect(try LanguagePair(parsing: "cat-por_PTpre1990").apertiumName == "cat-por_PTpre1990")
        #expect(try LanguagePair(parsing: "ind-zlm").apertiumName == "ind-zlm")
        #expect(try LanguagePair(parsing: "nob-nno_e").apertiumName == "nob-nno_e")
        #expect(try LanguagePair(parsing: "es-pt_BR").apertiumName == "spa-por_BR")
    }

    @Test("Google codes", arguments: [("he", "iw"), ("zh-Hans", "zh-CN"), ("zh-Hant-TW", "zh-TW"), ("zh-TW", "zh-TW"),
                                      ("en", "en"), ("pt-BR", "pt-BR"), ("jv", "jw")])
    func googleCodes(_ input: String, _ google: String) throws {
        #expect(try LanguageCode(parsing: input).googleCode == google)
    }

    @Test("malformed and unknown codes say what was given and what is accepted",
          arguments: ["", "x", "xx", "english", "en--US", "e1", "en-US-", "qqq", "en US", "ñu", "en-toolongvariantx",
                      "en-x", "en-x-toolongprivate",
                      // 64 characters, whose BCP-47 form (short variants after -x-) would be 66 (found by make fuzz)
                      "or_001elr_enppor_P0or_001elr_PT0190_enTpr1r_PTp00190_engPeH_L-d"])
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
        #expect(LanguageCode("ca-valencia").displayName(in: "en") == "Catalan (Valencian)")
        // Aranese is a variant: never named after the Nastaliq script.
        #expect(!(try LanguageCode(parsing: "oci_aran")).displayName(in: "en").contains("Nastaliq"))
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

    @Test("codes sort as their BCP-47 spellings do")
    func orderIsTheSpellingsOrder() throws {
        let spellings = ["en", "eng_US", "en-GB", "en-Latn", "en-Latn-US", "es", "es-419", "ast", "ca", "ca-valencia",
                         "cat_valencia_uni", "nno_e", "nn", "oci_aran", "oc", "pt-BR", "por_PTpre1990", "pt", "zh-Hant-TW",
                         "zh-Hans", "zh", "sr-Latn", "sr-Cyrl", "hbs", "de-1996", "de"]
        let codes = try spellings.map { try LanguageCode(parsing: $0) }
        #expect(codes.sorted().map(\.bcp47) == codes.map(\.bcp47).sorted())
        for a in codes {
            for b in codes {
                #expect((a < b) == (a.bcp47 < b.bcp47), "\(a) < \(b)")
            }
        }
    }
}
