import Foundation
import Testing
import TranslationKit

/// The Apple API's translations, on every backend.
@Suite struct SessionTranslateTests {
    @Test(arguments: BackendKind.allCases)
    func translatesOneText(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let response = try await harness.session("en", "es").translate("hello")
        #expect(response.targetText == "hello>es")
        #expect(response.sourceText == "hello")
        #expect(response.sourceLanguage.languageCode?.identifier == "en")
        #expect(response.targetLanguage.languageCode?.identifier == "es")
        #expect(response.clientIdentifier == nil)
    }

    @Test(arguments: BackendKind.allCases)
    func translationsComeBackInRequestOrderMatchedByIdentifier(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let ids = (0..<12).map { _ in UUID() }
        let requests = ids.enumerated().map { i, id in
            TranslationSession.Request(sourceText: "text \(i)", clientIdentifier: id.uuidString)
        }
        let responses = try await harness.session("en", "es").translations(from: requests)
        #expect(responses.map(\.clientIdentifier) == ids.map(\.uuidString))
        #expect(responses.map(\.targetText) == (0..<12).map { "text \($0)>es" })
    }

    @Test(arguments: BackendKind.allCases)
    func detectsEachTextsLanguageWhenTheSourceIsNil(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let requests = ["en:good", "fr:bon", "ca:bo"].map { TranslationSession.Request(sourceText: $0, clientIdentifier: $0) }
        let responses = try await harness.session(nil, "es").translations(from: requests)
        #expect(responses.map(\.targetText) == ["en:good>es", "fr:bon>es", "ca:bo>es"])
        #expect(responses.map { $0.sourceLanguage.languageCode?.identifier } == ["en", "fr", "ca"])
    }

    @Test(arguments: BackendKind.allCases)
    func pivotsThroughSpanish(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let response = try await harness.session("en", "ca").translate("hello")
        #expect(response.targetText == "hello>es>ca")
    }

    @Test(arguments: BackendKind.allCases)
    func nilTargetIsTheUsersPreferredLanguage(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let session = harness.session("es", nil)
        let preferred = Locale.Language(identifier: Locale.preferredLanguages.first ?? "en")
        #expect(session.targetLanguage == preferred)
        if preferred.languageCode?.identifier == "en" {
            #expect(try await session.translate("hola").targetText == "hola>en")
        }
    }

    @Test func configurationInvalidateBumpsTheVersionOnly() {
        var configuration = TranslationSession.Configuration(source: Locale.Language(identifier: "en"), target: nil)
        let before = configuration
        configuration.invalidate()
        #expect(configuration.version == before.version + 1)
        #expect(configuration.source == before.source)
        #expect(configuration != before)
    }
}
