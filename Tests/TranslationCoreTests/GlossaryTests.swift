import Testing
@testable import TranslationCore

/// Where glossary terms are found, how entries are read, and how a text is cut at its terms.
@Suite struct GlossaryTests {
    static func glossary(_ pairs: [(String, String)], ignoresCase: Bool = false) -> Glossary {
        Glossary(source: "en", target: "es", entries: pairs.map { GlossaryEntry(source: $0.0, target: $0.1) }, ignoresCase: ignoresCase)
    }

    static func found(_ g: Glossary, _ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return g.matches(in: bytes).map { String(decoding: bytes[$0.range], as: UTF8.self) + "=" + ($0.output ?? "") }
    }

    @Test func wholeWordsOnlyAndTheLongestTermWins() {
        let g = Self.glossary([("cat", "gato"), ("cat food", "pienso"), ("York", "Nueva York")])
        #expect(Self.found(g, "The cat ate cat food; a category, Yorkshire, cats.") == ["cat=gato", "cat food=pienso"])
        #expect(Self.found(g, "York, cat.") == ["York=Nueva York", "cat=gato"])
        #expect(Self.found(g, "") == [])
    }

    @Test func caseAsWrittenOrCapitalisedAtASentenceStart() {
        let g = Self.glossary([("house", "casa"), ("Glossa", "Glossa")])
        #expect(Self.found(g, "House of the house, HOUSE, glossa, Glossa") == ["House=Casa", "house=casa", "Glossa=Glossa"])
        let loose = Self.glossary([("house", "casa")], ignoresCase: true)
        #expect(Self.found(loose, "HOUSE and House") == ["HOUSE=casa", "House=casa"])
    }

    @Test func wordsWithAccentsAndScriptsWithoutSpaces() {
        let g = Glossary(source: "ja", target: "en", entries: [GlossaryEntry(source: "翻訳", target: "translation"),
                                                              GlossaryEntry(source: "café", target: "coffee")])
        #expect(Self.found(g, "機械翻訳です。café, cafés") == ["翻訳=translation", "café=coffee"])
    }

    @Test func aLaterStepKeepsTheTargetTerms() {
        let kept = Self.glossary([("house", "casa"), ("home", "casa")]).keepingTargets(from: "ca")
        #expect(kept.entries == [GlossaryEntry(source: "casa", target: "casa")])
        #expect(kept.source == "ca" && kept.target == "es")
    }

    @Test func entriesAreReadAsDeepLReadsThem() throws {
        let tsv = try GlossaryEntries.parse("hello\thola\n\n  world \t mundo \r\n", format: .tsv)
        #expect(tsv == [GlossaryEntry(source: "hello", target: "hola"), GlossaryEntry(source: "world", target: "mundo")])
        let csv = try GlossaryEntries.parse("\"a, b\",\"c \"\"d\"\"\"\ne,f,en,es", format: .csv)
        #expect(csv == [GlossaryEntry(source: "a, b", target: "c \"d\""), GlossaryEntry(source: "e", target: "f")])
        #expect(GlossaryEntries.tsv(tsv) == "hello\thola\nworld\tmundo")
    }

    @Test(arguments: [
        ("a\tb\nc", "line 2: no tab"),
        ("a\tb\tc", "line 1: more than one tab"),
        ("a\tb\na\tc", "line 2: the source term \"a\" is already on line 1"),
        ("\tb", "line 1: the source term is empty"),
        ("a\tb\u{7}", "line 1: the target term \"b\u{7}\" holds a control character"),
        ("", "there are no entries"),
    ])
    func badEntriesAreRefusedWithTheirLine(text: String, problem: String) {
        do {
            _ = try GlossaryEntries.parse(text, format: .tsv)
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect("\(error)".contains(problem), "\(error)")
        }
    }

    @Test func aTextIsCutAtItsTermsWithItsSpacesKept() {
        let cut = SegmentedText("  I live in a house near the sea. ", glossary: Self.glossary([("house", "casa")]))
        #expect(cut.sources == ["I live in a", "near the sea."])
        #expect(cut.assemble(["Vivo en una", "cerca del mar."]) == "  Vivo en una casa cerca del mar. ")
        let html = SegmentedText(html: #"<p title="house">A <b>house</b> &amp; caf&eacute;</p><code>house</code>"#,
                                 glossary: Self.glossary([("house", "casa")]))
        #expect(html.sources == ["A", "& café"])
        #expect(html.assemble(["Una", "& <café>"]) == #"<p title="house">Una <b>casa</b> &amp; &lt;café&gt;</p><code>house</code>"#)
        let whole = SegmentedText("house", glossary: Self.glossary([("house", "casa")]))
        #expect(whole.sources.isEmpty && whole.assemble([]) == "casa")
    }
}
