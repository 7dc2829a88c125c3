import Testing
@testable import LanguageDetection

/// What counts as language in an input.
@Suite struct LanguageContentTests {
    @Test(arguments: [
        ("see https://example.com/docs now", "see now"), ("mail john@example.org today", "mail today"),
        ("open main.swift please", "open please"), ("call f(x) here", "call here"), ("room 101 is free", "room is free"),
        ("l'été well-known", "l'été well-known"),
    ])
    func nonLanguageTokensAreDropped(input: String, kept: String) {
        #expect(LanguageContent(input).text == kept)
    }

    @Test func plainTextIsPassedOnAsItIs() {
        let content = LanguageContent("Hello there!!! — 😀")
        #expect(content.text == "Hello there!!! — 😀")
        #expect(content.letters == 10)
        #expect(content.share == 1)
    }

    @Test func shareOfLanguage() {
        let content = LanguageContent("return x; }")
        #expect(content.text == "return")
        #expect(content.share < 0.7)
        #expect(LanguageContent("https://example.com").letters == 0)
    }
}
