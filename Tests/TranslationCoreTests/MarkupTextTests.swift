import Testing
import TranslationCore

/// What detection reads of markup: the text a reader sees.
@Suite struct MarkupTextTests {
    func words(_ html: String) -> String {
        MarkupText.content(of: html, format: .html).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func tagsAndAttributesAreLeftOut() {
        #expect(words(#"<p class="note" title="a > b">The <b>red</b> house</p>"#) == "The red house")
        #expect(words("<ul><li>one</li><li>two</li></ul>") == "one two")   // block tags separate words
        #expect(words("wo<b>rd</b> <a href='x'>link</a>") == "word link")  // inline tags do not
        #expect(words("line<br>next") == "line next")
    }

    @Test func commentsScriptsStylesAndDeclarationsAreLeftOut() {
        #expect(words("<!DOCTYPE html><!-- a comment --><p>Hola</p><?php echo 1 ?>") == "Hola")
        #expect(words("<script>var x = '<p>not text</p>';</script><style>p { color: red }</style><p>Bonjour</p>") == "Bonjour")
        #expect(words("<![CDATA[kept as text]]> and more") == "kept as text and more")
    }

    @Test func referencesAreDecoded() {
        #expect(words("caf&eacute; &amp; cr&#232;me&nbsp;br&#xFB;l&eacute;e") == "café & crème brûlée")
        #expect(words("&unknown; &#xZZ; a&b") == "&unknown; &#xZZ; a&b")  // what is no reference stays
    }

    @Test func plainTextAndStrayAnglesAreText() {
        #expect(MarkupText.content(of: "<b>bold</b> & more", format: .text) == "<b>bold</b> & more")
        #expect(words("3 < 4 and 5 > 2") == "3 < 4 and 5 > 2")
        #expect(words("<unclosed") == "")
    }
}
