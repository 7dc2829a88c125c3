import Testing
import TranslationTesting
@testable import ServerAPI

/// Google's html-mode escaping touches text only: code and comments come back byte for byte.
@Suite struct HTMLTextEscaperTests {
    @Test func textIsEscapedTagsAndEntitiesAreNot() {
        #expect(HTMLTextEscaper.escapeText(in: "It's <b class=\"x\">a > b</b> &amp; \"c\" & d") ==
                "It&#39;s <b class=\"x\">a &gt; b</b> &amp; &quot;c&quot; &amp; d")
    }

    @Test func scriptAndStyleBodiesAreNotEscaped() {
        let page = "<script type=\"module\">if (a < b && c > 'd') { x(\"<p>\"); }</script> a > b <STYLE>p > a { content: \"&\"; }</STYLE>'"
        #expect(HTMLTextEscaper.escapeText(in: page) ==
                "<script type=\"module\">if (a < b && c > 'd') { x(\"<p>\"); }</script> a &gt; b <STYLE>p > a { content: \"&\"; }</STYLE>&#39;")
        #expect(HTMLTextEscaper.escapeText(in: "<script>never closed 'x' < y") == "<script>never closed 'x' < y")
        #expect(HTMLTextEscaper.escapeText(in: "<scripts>'x'</scripts>") == "<scripts>&#39;x&#39;</scripts>")
    }

    @Test func commentsClosedOrNotAreNotEscaped() {
        #expect(HTMLTextEscaper.escapeText(in: "a<!-- 'x' > y -->'b'") == "a<!-- 'x' > y -->&#39;b&#39;")
        #expect(HTMLTextEscaper.escapeText(in: "a <!-- unclosed 'x' > y") == "a <!-- unclosed 'x' > y")
    }
}

/// Only APy's markUnknown (default yes) asks the engine for Apertium's marks.
@Suite struct MarksByProtocolTests {
    @Test func onlyAPyAsksForMarks() async throws {
        let live = try await LiveServer.start(engine: prefixEngine(showsMarks: true))
        let apy = try await live.get("/translate?langpair=eng|spa&q=x&format=txt")
        #expect(apy.text == #"{"responseData":{"translatedText":"es:*x"},"responseDetails":null,"responseStatus":200}"#)
        let apyNo = try await live.get("/translate?langpair=eng|spa&q=x&format=txt&markUnknown=no")
        #expect(apyNo.text == #"{"responseData":{"translatedText":"es:x"},"responseDetails":null,"responseStatus":200}"#)
        let google = try await live.get("/language/translate/v2?q=x&target=es&source=en&format=text&prettyPrint=false")
        #expect(google.text == #"{"data":{"translations":[{"translatedText":"es:x"}]}}"#)
        let ajax = try await live.get("/ajax/services/language/translate?v=1.0&q=x&langpair=en%7Ces")
        #expect(ajax.text.contains(#""translatedText":"es:x""#), "\(ajax.text)")
        await live.stop()
    }
}
