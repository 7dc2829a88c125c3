import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// HTML through the real en→es pipeline: only text is translated; entities, script and style
/// bodies, comments (closed or not), attributes, code and `translate="no"` elements come back
/// where they were and as they were. Where Apertium's own formatter is right, the answer is the
/// raw `apertium -f html` command's, byte for byte.
@Suite(.serialized, Requirement.apertium("eng-spa")) struct MarkupTests {
    static func translate(_ html: [String]) async throws -> [String] {
        var out: [String] = []
        try await EngineIntegrationTests.withEngine { engine in
            out = try await engine.translate(html, pair: EngineIntegrationTests.engSpa, options: TranslationOptions(format: .html))
        }
        return out
    }

    static let asApertiumDoesIt = [
        "a &lt;friend&gt; &quot;Bob&quot; is <b>here</b>.",
        "<script>if (a < b && \"x\") { s = '<p>the house</p>'; }</script> the house",
        "<style type=\"text/css\">p > a { content: \"&amp; the house\"; }</style>The house.",
        "<p>The house</p><!-- the house --> <!-- the red house",
        "<pre>the  house\n  is   red</pre>",
        "<a title=\"the house\" href=\"/the/house\">the house</a> <img src=\"a.png\" alt=\"the red house\">",
        "The house {{ the.house }} is red.",
    ]

    @Test func matchesApertiumsFormatter() async throws {
        let out = try await Self.translate(Self.asApertiumDoesIt)
        for (html, ours) in zip(Self.asApertiumDoesIt, out) {
            let raw = String(decoding: try RealTool.run("/usr/bin/apertium", ["-u", "-f", "html", "eng-spa"], input: Array(html.utf8)), as: UTF8.self)
            #expect(ours == raw, "\(html)")
        }
    }

    @Test func codeAndNoTranslateStayAsTheyWere() async throws {
        let inputs = [
            "The house <code>the house &lt; x</code> is red.",
            "<p translate=\"no\">The house</p><p>The house</p>",
            "<span class=\"brand notranslate\">Red House</span> the house",
            "<div translate=no><div>the house</div> the house</div> the house",
            "<script>document.write('</scr' + 'ipt>')</script>",
            "<code>never closed, the house",
        ]
        let out = try await Self.translate(inputs)
        #expect(out[0] == "La casa <code>the house &lt; x</code> es roja.")
        #expect(out[1] == "<p translate=\"no\">The house</p><p>La casa</p>")
        #expect(out[2] == "<span class=\"brand notranslate\">Red House</span> La casa")
        #expect(out[3] == "<div translate=no><div>the house</div> the house</div> La casa")
        #expect(out[4] == inputs[4])
        #expect(out[5] == inputs[5])
    }

    @Test func textFormatTreatsTagsAsText() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let out = try await engine.translate(["A <b>bold</b> &amp; word."], pair: EngineIntegrationTests.engSpa, options: TranslationOptions())
            let raw = String(decoding: try RealTool.run("/usr/bin/apertium", ["-u", "eng-spa"], input: Array("A <b>bold</b> &amp; word.".utf8)), as: UTF8.self)
            #expect(out == [raw])
            #expect(!out[0].contains("*"))
        }
    }
}
