import Testing
import TranslationTesting
@testable import ApertiumEngine
import TranslationCore

/// Glossary terms travel through real Apertium pipelines as superblanks holding the target
/// term: in place, exactly as written, in text and in HTML, and never matched inside markup.
@Suite struct GlossaryTermTests {
    static let glossary = Glossary(source: "en", target: "es", entries: [
        GlossaryEntry(source: "house", target: "hogar"), GlossaryEntry(source: "red", target: "colorado & rojo"),
    ])

    @Test func termsBecomeSuperblanksWithTheirTargets() {
        #expect(TextDeformatter.deformat("The red house [x]", glossary: Self.glossary).string == "The[ colorado & rojo hogar ]\\[x\\].[]")
        // HTML: escaped for the page; a term in an attribute or an untranslated element stays.
        let html = HTMLDeformatter.deformat("<p title=\"house\">A house</p><code>house</code>", glossary: Self.glossary).string
        // (a stream that ends in a blank group has its `.[]` before that group, as deshtml writes it)
        #expect(html == #".[][<p title="house">]A.[][ hogar<\/p><code>house<\/code>]"#, "\(html)")
        #expect(HTMLDeformatter.deformat("red", glossary: Self.glossary).string == ".[][colorado &amp; rojo]")
    }

    @Test(Requirement.apertium("eng-spa")) func aRealPipelinePutsEachTermInPlace() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let pair = EngineIntegrationTests.engSpa
            let plain = try await engine.translate(["My house is your house."], pair: pair, options: TranslationOptions())
            let glossed = try await engine.translate(["My house is your house.", "<p>My <b>house</b></p>"], pair: pair,
                                                     options: TranslationOptions(format: .text, glossary: Self.glossary))
            #expect(plain[0].contains("casa"))
            #expect(glossed[0].hasPrefix("Mi hogar") && glossed[0].contains("hogar.") && !glossed[0].contains("casa"), "\(glossed)")
            let html = try await engine.translate(["<p>My <b>house</b></p>"], pair: pair, options: TranslationOptions(format: .html, glossary: Self.glossary))
            #expect(html == ["<p>Mi <b>hogar</b></p>"])
        }
    }
}

/// DeepL's tag and sentence options at the deformatter: which elements stay untranslated and
/// which end sentences.
@Suite struct MarkupOptionTests {
    @Test func ignoredElementsStayWhole() {
        let ignored = MarkupOptions(ignoredElements: ["Ignore"])
        #expect(HTMLDeformatter.deformat("a <ignore>red house</ignore> b", markup: ignored).string == "a[ <ignore>red house<\\/ignore> ]b.[]")
        #expect(HTMLDeformatter.deformat("a <ignore>red house</ignore> b").string == "a[ <ignore>]red house[<\\/ignore> ]b.[]")
    }

    @Test func splittingAndNonSplittingElements() {
        #expect(HTMLDeformatter.deformat("a<p>b").string == "a.[][<p>]b.[]")
        #expect(HTMLDeformatter.deformat("a<p>b", markup: MarkupOptions(nonSplittingElements: ["p"])).string == "a[<p>]b.[]")
        #expect(HTMLDeformatter.deformat("a<seg>b", markup: MarkupOptions(splittingElements: ["seg"])).string == "a.[][<seg>]b.[]")
        #expect(HTMLDeformatter.deformat("a<p>b", markup: MarkupOptions(detectsOutline: false)).string == "a[<p>]b.[]")
    }

    @Test func newlinesEndSentencesUnlessAskedNotTo() {
        #expect(TextDeformatter.deformat("a\n\nb").string == "a.[][\n\n]b.[]")
        #expect(TextDeformatter.deformat("a\n\nb", newlinesEndSentences: false).string == "a[\n\n]b.[]")
    }
}
