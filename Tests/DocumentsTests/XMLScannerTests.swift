import Testing
@testable import Documents

/// The byte-level reading of start tags that every office document's reading depends on.
@Suite struct XMLScannerTests {
    private func declarations(_ tag: String) -> [String] {
        let bytes = Array(tag.utf8)
        return XMLScanner.namespaceDeclarations(bytes, 0..<bytes.count).map { "\($0.0)=\($0.1)" }
    }

    @Test func defaultAndPrefixedDeclarationsInEitherQuote() {
        #expect(declarations(#"<w:document xmlns="urn:d" xmlns:w='urn:w' w:x="1">"#) == ["=urn:d", "w=urn:w"])
        #expect(declarations("<a:p\n  xmlns:a = \"urn:a\"\t/>") == ["a=urn:a"])
    }

    @Test func tagsWithoutDeclarationsAndMalformedOnesGiveNone() {
        #expect(declarations("<w:p>").isEmpty)
        #expect(declarations(#"<w:t w:val="x">"#).isEmpty)
        #expect(declarations("<w:p xmlns>").isEmpty)
        #expect(declarations("<w:p xmlns:w=urn>").isEmpty)
        #expect(declarations(#"<w:p xmlns:w="unterminated>"#) == ["w=unterminated>"])
    }

    @Test func onlyTheTagsOwnBytesAreRead() {
        let bytes = Array(#"<a xmlns:x="1"><b xmlns:y="2">"#.utf8)
        #expect(XMLScanner.namespaceDeclarations(bytes, 0..<15).map(\.0) == ["x"])
        #expect(XMLScanner.namespaceDeclarations(bytes, 15..<bytes.count).map(\.1) == ["2"])
    }

    @Test func textIsUnescapedOnlyWhereItHasReferences() {
        #expect(XMLText.unescape(ArraySlice("plain".utf8)) == "plain")
        #expect(XMLText.unescape(ArraySlice("a &amp; b &lt;c&gt; &#233; &unknown;".utf8)) == "a & b <c> é &unknown;")
    }

    @Test func aPrefixMeansWhatTheDeclarationsInForceSay() {
        // `w` is WordprocessingML at the root, another namespace inside `x:box`, and again
        // WordprocessingML after it closes (names resolved once are not reused across scopes).
        let w = XMLTextRules.wordNamespace
        let xml = """
            <w:document xmlns:w="\(w)" xmlns:x="urn:x"><w:p><w:t>one</w:t></w:p>\
            <x:box xmlns:w="urn:other"><w:p><w:t>not Word</w:t></w:p></x:box>\
            <w:p><w:t>two</w:t></w:p><v:p xmlns:v="\(w)"><v:t>three</v:t></v:p><w:p><w:t>four</w:t></w:p></w:document>
            """
        let part = XMLPart(bytes: Array(xml.utf8), rules: .word)
        #expect(part.segments.map { $0.pieces.joined() } == ["one", "two", "three", "four"])
    }
}
