import Testing
import TranslationTesting
@testable import ApertiumEngine

/// Glossa's deformatters produce what Debian's `apertium-destxt` / `apertium-deshtml` produce.
@Suite struct DeformatterTests {
    static let textSamples: [String] = [
        "", " ", "\n", "a\nb", "a\nb\n", "Hello world", "Hello  world.\n\nSecond\tpara  ",
        "a\\b [x] ^y$ /z @w <v> {u} #t * +", "a\n\n\nb", "a\n\n\n\nb", "a\n\n", "a \n b", "  a",
        "\n\na", "a\r\n\r\nb", "a\r\nb", "a\t", "a \tb", "x\u{01}y", "a[]b", "a.\n\nb",
        "Good morning. How are you? Fine!\n\nNext paragraph with café, naïve, 日本語 text.",
        "a \n\n b", "a\n \nb", "a\n\n \n\nb", "tail space ", "€ 100 — «quoted» ‘x’",
    ]

    static let htmlSamples: [String] = [
        "<p>Hello <b>world</b></p>", "<p>One.</p><p>Two</p>", "A<br>B<br/>C", "<br />x",
        "<!-- c --> x <script>var a=\"<b>\";</script> y <style>p{}</style>",
        "x [y] \\z ^a$ @b /c {d}", "<div class=\"a\">Hi</div>\n<span>there</span>", "Hello world",
        "<a href=\"x/y\">link</a> text  two", "a < b", "a<b", "a > b", "x {y} z", "  a  ", "a\nb", "a\n\nb",
        "<b>x</b>  <i>y</i>", "a &amp;&lt; b", "a&#60;b &#x41;", "<P>Up</P>", "<td>x</td>",
        "<!DOCTYPE html><html>x", "<pre>keep</pre> <h2 id=t>Title</h2>", "<ul><li>one</li><li>two</li></ul>",
        "a & b &c d&", "<p>unclosed <b", "<SCRIPT type=x>if (a<b) {}</SCRIPT>after",
        "<!-- open the house", "a &lt;friend&gt; &quot;Bob&quot; b", "<script>if (a < b && \"x\") {}</script> the house",
        "<style type=\"text/css\">p > a { content: \"&\"; }</style>x", "<pre>the  house\n  is red</pre>",
        "<a title=\"the house\" href=\"/the/house\">the house</a>", "<img src=\"a.png\" alt=\"the red house\">",
        "x {{y z}} w", "a ~ b~c", "<p>x</p><!-- a --><!-- b --> y",
    ]

    @Test("text deformatting matches apertium-destxt", Requirement.apertiumTools, arguments: textSamples)
    func textMatchesDestxt(sample: String) throws {
        try #require(RealTool.exists("/usr/bin/apertium-destxt"), "apertium is not installed (make deps)")
        let real = try RealTool.run("/usr/bin/apertium-destxt", input: Array(sample.utf8))
        // Placeholders (`{u}`) are protected on purpose (PlaceholderTests); the rest is destxt's.
        let ours = TextDeformatter.deformat(sample, placeholders: false).bytes
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: real, as: UTF8.self))
    }

    @Test("HTML deformatting matches apertium-deshtml", Requirement.apertiumTools, arguments: htmlSamples)
    func htmlMatchesDeshtml(sample: String) throws {
        try #require(RealTool.exists("/usr/bin/apertium-deshtml"), "apertium is not installed (make deps)")
        let real = try RealTool.run("/usr/bin/apertium-deshtml", input: Array(sample.utf8))
        let ours = HTMLDeformatter.deformat(sample, placeholders: false).bytes
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: real, as: UTF8.self))
    }

    @Test("reformatting matches apertium-retxt on deformatted text", Requirement.apertiumTools, arguments: textSamples)
    func textRoundTrip(sample: String) throws {
        try #require(RealTool.exists("/usr/bin/apertium-retxt"), "apertium is not installed (make deps)")
        let stream = TextDeformatter.deformat(sample).bytes
        let real = try RealTool.run("/usr/bin/apertium-retxt", input: stream)
        #expect(Reformatter.reformat(stream) == String(decoding: real, as: UTF8.self))
        #expect(Reformatter.reformat(stream) == sample)
    }

    @Test("reformatting matches apertium-rehtml and gives back the HTML", Requirement.apertiumTools, arguments: htmlSamples)
    func htmlRoundTrip(sample: String) throws {
        try #require(RealTool.exists("/usr/bin/apertium-rehtml"), "apertium is not installed (make deps)")
        let stream = HTMLDeformatter.deformat(sample).bytes
        let real = try RealTool.run("/usr/bin/apertium-rehtml", input: stream)
        #expect(Reformatter.reformat(stream) == String(decoding: real, as: UTF8.self))
        #expect(Reformatter.reformat(stream) == sample)
    }

    @Test func letterEntitiesBecomeUTF8Letters() {
        // deshtml writes Latin-1 bytes here (mojibake in UTF-8); Glossa writes the letter.
        #expect(HTMLDeformatter.deformat("caf&eacute; &#233;t&#xE9; &Ouml;l").string == "café été Öl.[]")
        #expect(Reformatter.reformat(HTMLDeformatter.deformat("caf&eacute; &amp; &nbsp;").bytes) == "café &amp; &nbsp;")
    }

    @Test func nulTravelsAsAMarkerAndComesBack() {
        let text = "a\u{0}b \u{0}"
        let stream = TextDeformatter.deformat(text).bytes
        #expect(!stream.contains(0))
        #expect(Reformatter.reformat(stream) == text)
        #expect(Reformatter.reformat(HTMLDeformatter.deformat("<b>\u{0}</b>").bytes) == "<b>\u{0}</b>")
    }

    @Test func escapedSlashInsideSuperblankIsNotTheNulToken() {
        let html = "<a href=\"/0\">x</a>"
        #expect(Reformatter.reformat(HTMLDeformatter.deformat(html).bytes) == html)
    }
}
