import Synchronization
import Testing
import TranslationCore
import TranslationTesting
@testable import TranslationService

/// A detector that answers from a table of exact texts (anything else: nothing detected) and
/// remembers what it was given, so a test sees the text detection read.
func tableDetector(_ answers: [String: Detection]) -> FakeDetector { FakeDetector([.table(answers)]) }

/// An engine whose output for a text is given by a table (else the text tagged with the pair).
func tableEngine(served: [LanguagePair], outputs: [String: String]) -> FakeEngine {
    FakeEngine(name: "table", served: served, outputs: outputs)
}

@Suite("How a request's source is chosen when left to detection")
struct SourceChoiceTests {
    static func sure(_ code: LanguageCode) -> Detection { Detection(language: code, confidence: 0.95, isReliable: true) }

    @Test("HTML: the detector reads the text a reader sees, and the markup is translated as HTML")
    func markupIsNotDetected() async throws {
        let detector = tableDetector(["The red house": Self.sure("en")])
        let service = await TranslationService(engines: [tableEngine(served: pairs("en-es"), outputs: [:])], detector: detector)
        let html = "<p class=\"note\">The <b>red</b> house</p>"
        let out = try await service.translate([html], from: nil, to: "es", options: TranslationOptions(format: .html))
        #expect(detector.seen.map { $0.trimmingSpaces } == ["The red house"])
        #expect(out[0].source == "en" && out[0].translatedText == html + ">es")
        // Plain text is detected as it is, tags and all.
        _ = try? await service.translate([html], from: nil, to: "es")
        #expect(detector.seen.last == html)
    }

    @Test("text with no language comes back unchanged with no source; the rest of the batch is translated")
    func undeterminedItems() async throws {
        let detector = tableDetector(["Good morning": Self.sure("en")])
        let service = await TranslationService(engines: [tableEngine(served: pairs("en-es"), outputs: [:])], detector: detector)
        let out = try await service.translate(["12345", "Good morning", "🙂", ""], from: nil, to: "es")
        #expect(out.map(\.translatedText) == ["12345", "Good morning>es", "🙂", ""])
        #expect(out.map(\.source) == [nil, "en", nil, nil])
        #expect(out[0].route == nil && out[1].route != nil)
        // Alone, too: nothing to translate is not an error.
        let alone = try await service.translate(["12345"], from: nil, to: "es")
        #expect(alone[0].translatedText == "12345" && alone[0].source == nil)
    }

    @Test("an unsure answer with no route gives way to the most probable candidate that has one")
    func unsureAnswerGivesWay() async throws {
        let hi = Detection(language: "ts", confidence: 0.3, isReliable: false,
                           alternatives: [.init(language: "sw", confidence: 0.25), .init(language: "en", confidence: 0.2)])
        let service = await TranslationService(engines: [tableEngine(served: pairs("en-es"), outputs: [:])],
                                               detector: tableDetector(["Hi": hi]))
        let out = try await service.translate(["Hi"], from: nil, to: "es")
        #expect(out[0].source == "en" && out[0].translatedText == "Hi>es")
        #expect(out[0].detection?.language == "en" && out[0].detection?.confidence == 0.2)
        #expect(out[0].detection?.alternatives.map(\.language) == ["ts", "sw"])
    }

    @Test("a language detected for sure that nothing translates: refused alone, passed through in a batch")
    func unservedLanguage() async throws {
        let detector = tableDetector(["Guten Morgen": Self.sure("de"), "Good morning": Self.sure("en")])
        let service = await TranslationService(engines: [tableEngine(served: pairs("en-es"), outputs: [:])], detector: detector)
        await #expect { try await service.translate(["Guten Morgen"], from: nil, to: "es") } throws: {
            ($0 as? TranslationError)?.kind == .unsupportedSourceLanguage || ($0 as? TranslationError)?.kind == .unsupportedPair
        }
        let out = try await service.translate(["Guten Morgen", "Good morning"], from: nil, to: "es")
        #expect(out.map(\.translatedText) == ["Guten Morgen", "Good morning>es"])
        #expect(out[0].source == "de" && out[0].route == nil)
    }

    @Test("a non-empty text never comes back as an empty translation")
    func neverEmpty() async throws {
        let service = await TranslationService(
            engines: [tableEngine(served: pairs("ca-en"), outputs: ["Hi": "", "<p>Hi</p>": "<p> </p>", "Bon dia": "Good morning"])],
            detector: tableDetector([:]))
        let out = try await service.translate(["Hi", "Bon dia"], from: "ca", to: "en")
        #expect(out.map(\.translatedText) == ["Hi", "Good morning"])
        let html = try await service.translate(["<p>Hi</p>"], from: "ca", to: "en", options: TranslationOptions(format: .html))
        #expect(html[0].translatedText == "<p>Hi</p>")
    }
}

extension String {
    var trimmingSpaces: String {
        split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
