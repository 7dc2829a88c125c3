import Foundation
import Testing
import TranslationKit

/// `LanguageAvailability` and `prepareTranslation()`.
@Suite struct AvailabilityTests {
    let en = Locale.Language(identifier: "en")
    let es = Locale.Language(identifier: "es")

    @Test(arguments: BackendKind.allCases)
    func statusTellsInstalledFromSupportedFromUnsupported(kind: BackendKind) async throws {
        let availability = LanguageAvailability(backend: try await Harness.make(kind).backend)
        #expect(await availability.status(from: en, to: es) == .installed)
        #expect(await availability.status(from: en, to: Locale.Language(identifier: "ca")) == .installed)  // pivot
        #expect(await availability.status(from: en, to: Locale.Language(identifier: "gl")) == .supported)
        #expect(await availability.status(from: en, to: Locale.Language(identifier: "ja")) == .unsupported)
        #expect(await availability.status(from: Locale.Language(identifier: "en-US"), to: Locale.Language(identifier: "en-GB")) == .unsupported)
    }

    @Test(arguments: BackendKind.allCases)
    func statusForTextDetectsItsLanguage(kind: BackendKind) async throws {
        let availability = LanguageAvailability(backend: try await Harness.make(kind).backend)
        #expect(try await availability.status(for: "fr:bonjour", to: es) == .installed)
        await #expect(throws: TranslationError.unableToIdentifyLanguage) { try await availability.status(for: "???", to: es) }
    }

    @Test(arguments: BackendKind.allCases)
    func supportedLanguagesIncludeInstalledAndPackaged(kind: BackendKind) async throws {
        let codes = await LanguageAvailability(backend: try await Harness.make(kind).backend).supportedLanguages
            .compactMap { $0.languageCode?.identifier }
        #expect(codes.contains("en") && codes.contains("es") && codes.contains("gl") && codes.contains("uk"))
        #expect(!codes.contains("ja"))
    }

    @Test(arguments: BackendKind.allCases)
    func prepareIsQuietWhenInstalledAndNeedsASource(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        let steps = Recorder<PreparationProgress>()
        try await harness.session("en", "es").prepareTranslation { steps.append($0) }
        #expect(steps.all == [.checking, .alreadyInstalled])
        await #expect(throws: TranslationError.unableToIdentifyLanguage) { try await harness.session(nil, "es").prepareTranslation() }
        await #expect(throws: TranslationError.unsupportedLanguagePairing) { try await harness.session("ur", "es").prepareTranslation() }
        await #expect(throws: TranslationError.unsupportedSourceLanguage) { try await harness.session("eo", "es").prepareTranslation() }
    }
}
