import Testing
@testable import TranslationCore

/// Which stretches are placeholders, and which look like one but are text.
@Suite struct PlaceholderTests {
    static func found(_ text: String, _ format: TextFormat = .text) -> [String] {
        let bytes = Array(text.utf8)
        return Placeholders.spans(in: bytes, format: format).map { String(decoding: bytes[$0.range], as: UTF8.self) }
    }

    @Test func everyKindALocalizationToolSends() {
        #expect(Self.found("Hi {name}, {{count}} {{ user.name }} {0}") == ["{name}", "{{count}}", "{{ user.name }}", "{0}"])
        #expect(Self.found("%s %d %1$d %-5.2f %(name)s %% %lu %uMB %1 %{x}") == ["%s", "%d", "%1$d", "%-5.2f", "%(name)s", "%%", "%lu", "%u", "%1", "%{x}"])
        #expect(Self.found("$var ${HOME} $_x") == ["$var", "${HOME}", "$_x"])
        #expect(Self.found("You have {n, plural, one {# file} other {# files}} left") == ["{n, plural, one {# file} other {# files}}"])
        #expect(Self.found(#"Save <x id="1"/> or <x id="2"></x> <g id="3">bold</g> <ph id="4">{0}</ph>"#)
                == [#"<x id="1"/>"#, #"<x id="2"></x>"#, #"<g id="3">"#, "</g>", #"<ph id="4">{0}</ph>"#])
    }

    @Test func whatOnlyLooksLikeOneIsText() {
        #expect(Self.found("50% off, 100%, $5, { spaced }, {unclosed, a < b, <b>bold</b>") == [])
        // In HTML every tag is markup already: no inline code is a placeholder there.
        #expect(Self.found(#"<x id="1"/> {name}"#, .html) == ["{name}"])
    }

    @Test func aGlossaryTermInsideAPlaceholderIsLeftToThePlaceholder() {
        let glossary = Glossary(source: "en", target: "es", entries: [GlossaryEntry(source: "name", target: "nombre"),
                                                                     GlossaryEntry(source: "file", target: "fichero")])
        let bytes = Array("{name} file".utf8)
        let spans = ProtectedSpan.find(in: bytes, format: .text, glossary: glossary)
        #expect(spans.map { $0.text(in: bytes) } == ["{name}", "fichero"])
    }
}
