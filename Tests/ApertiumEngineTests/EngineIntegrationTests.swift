import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// The engine with the real Apertium pairs that `make test` installs (scripts/install-deps.sh).
@Suite(.serialized, Requirement.apertium("eng-spa")) struct EngineIntegrationTests {
    static let engSpa = LanguagePair(source: "en", target: "es")

    /// An engine whose pipelines are stopped when `body` ends, however it ends.
    static func withEngine(_ configuration: ApertiumEngine.Configuration = .init(),
                           _ body: (ApertiumEngine) async throws -> Void) async throws {
        let engine = ApertiumEngine(configuration: configuration)
        try #require(await engine.pairs().contains(engSpa), "Apertium eng-spa is not installed (make deps-test)")
        do {
            try await body(engine)
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }

    @Test func goodMorningInSpanish() async throws {
        try await Self.withEngine { engine in
            let out = try await engine.translate(["Good morning"], pair: Self.engSpa, options: TranslationOptions())
            #expect(out.count == 1)
            #expect(out[0].contains("Buenos días"), "got \(out)")
        }
    }

    @Test func everyInstalledPairTranslatesThroughItsWarmPipeline() async throws {
        try await Self.withEngine { engine in
            let samples = ["en": "The house is red.", "es": "La casa es roja.", "ca": "La casa és vermella.",
                           "pt": "A casa é vermelha.", "fr": "La maison est rouge.", "gl": "A casa é vermella."]
            for pair in await engine.pairs() {
                guard let sample = samples[pair.source.language] else { continue }
                let out = try await engine.translate([sample, sample], pair: pair, options: TranslationOptions())
                #expect(out.count == 2)
                #expect(!out[0].isEmpty && out[0] == out[1], "\(pair.apertiumName): \(out)")
            }
        }
    }

    @Test func emptyTextGivesEmptyOutput() async throws {
        try await Self.withEngine { engine in
            #expect(try await engine.translate([""], pair: Self.engSpa, options: TranslationOptions()) == [""])
            #expect(try await engine.translate([], pair: Self.engSpa, options: TranslationOptions()) == [])
            let mixed = try await engine.translate(["", "I have 3 red houses.", ""], pair: Self.engSpa, options: TranslationOptions())
            #expect(mixed.map { $0.trimmingCharacters(in: .whitespaces) } == ["", "Tengo 3 casas rojas.", ""])
        }
    }

    @Test func unsupportedPairListsWhatIsAvailable() async throws {
        try await Self.withEngine { engine in
            do {
                _ = try await engine.translate(["x"], pair: LanguagePair(source: "ja", target: "ko"), options: TranslationOptions())
                Issue.record("ja→ko is not installed and must fail")
            } catch let error as TranslationError {
                #expect(error.kind == .unsupportedPair)
                #expect(error.message.contains("en-es"))
            }
        }
    }

    @Test func htmlKeepsItsTags() async throws {
        try await Self.withEngine { engine in
            let html = TranslationOptions(format: .html)
            let out = try await engine.translate(["<p>Hello <b>world</b></p>"], pair: Self.engSpa, options: html)
            #expect(out == ["<p>Hola <b>Mundo</b></p>"])
            let page = "<html><head><title>Good morning</title><script>if (a < b) { x(); }</script></head>"
                + "<body><p class=\"x\">I have 3 red houses.</p><!-- note --><br/><a href=\"/a/b\">the cat</a></body></html>"
            let translated = try await engine.translate([page], pair: Self.engSpa, options: html)[0]
            let tags = { (s: String) in s.matches(of: /<[^>]*>/).map { String($0.output) } }
            #expect(tags(translated) == tags(page), "tags changed: \(translated)")
            #expect(translated.contains("Tengo 3 casas rojas."))
            #expect(translated.contains("if (a < b) { x(); }"))
        }
    }

    @Test func specialCharactersSurviveEscaping() async throws {
        try await Self.withEngine { engine in
            let out = try await engine.translate(["x [b] \\c ^d$ @e {f} <g> [<glossa:0-0>] 50% a/b\u{0}z"], pair: Self.engSpa,
                                                 options: TranslationOptions())[0]
            for piece in ["[", "]", "\\", "^", "$", "@", "{", "}", "<", ">", "[<glossa:0-0>]", "50%", "\u{0}"] {
                #expect(out.contains(piece), "lost \(piece.debugDescription) in \(out.debugDescription)")
            }
            #expect(!out.contains("*"))
        }
    }

    @Test func twoHundredConcurrentTranslationsEachReturnToTheirCaller() async throws {
        try await Self.withEngine { engine in
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for i in 0..<200 {
                    group.addTask {
                        let out = try await engine.translate(["I have \(i + 2) red houses."], pair: Self.engSpa, options: TranslationOptions())
                        return (i, out[0])
                    }
                }
                var seen = Set<Int>()
                for try await (i, out) in group {
                    // Apertium itself keeps the blank of the dropped pronoun (`apertium eng-spa` says
                    // " Tengo"), so compare without surrounding blanks.
                    #expect(out.trimmingCharacters(in: .whitespaces) == "Tengo \(i + 2) casas rojas.")
                    seen.insert(i)
                }
                #expect(seen.count == 200)
            }
            #expect(await engine.pipelinePIDs(for: Self.engSpa).count <= engine.configuration.maxPipelines)
        }
    }
}
