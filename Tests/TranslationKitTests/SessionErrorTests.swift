import Foundation
import Testing
import TranslationKit

/// Every failure Apple's API defines, with a readable reason, on every backend.
@Suite struct SessionErrorTests {
    @Test(arguments: BackendKind.allCases)
    func blankTextIsNothingToTranslate(kind: BackendKind) async throws {
        let session = try await Harness.make(kind).session("en", "es")
        await #expect(throws: TranslationError.nothingToTranslate) { try await session.translate("  ") }
        await #expect(throws: TranslationError.nothingToTranslate) { try await session.translations(from: []) }
        await #expect(throws: TranslationError.nothingToTranslate) {
            for try await _ in session.translate(batch: []) {}
        }
    }

    @Test(arguments: BackendKind.allCases)
    func unknownSourceLanguageIsUnsupportedSource(kind: BackendKind) async throws {
        let session = try await Harness.make(kind).session("ja", "es")
        let error = await #expect(throws: TranslationError.unsupportedSourceLanguage) { try await session.translate("こんにちは") }
        #expect(error?.failureReason?.contains("Japanese") == true)
    }

    @Test(arguments: BackendKind.allCases)
    func unknownTargetLanguageIsUnsupportedTarget(kind: BackendKind) async throws {
        let session = try await Harness.make(kind).session("en", "ja")
        await #expect(throws: TranslationError.unsupportedTargetLanguage) { try await session.translate("hello") }
    }

    @Test(arguments: BackendKind.allCases)
    func sameLanguageOrUnjoinableLanguagesAreUnsupportedPairing(kind: BackendKind) async throws {
        let harness = try await Harness.make(kind)
        await #expect(throws: TranslationError.unsupportedLanguagePairing) {
            try await harness.session("en-US", "en-GB").translate("colour")
        }
        // Urdu is packaged (Urdu ↔ Hindi) but nothing joins it to Spanish, even through a pivot.
        await #expect(throws: TranslationError.unsupportedLanguagePairing) {
            try await harness.session("ur", "es").translate("سلام")
        }
        // Esperanto is packaged only as a target: nothing translates from it.
        await #expect(throws: TranslationError.unsupportedSourceLanguage) {
            try await harness.session("eo", "es").translate("saluton")
        }
    }

    @Test(arguments: BackendKind.allCases)
    func packagedButMissingPairIsNotInstalledWithTheCommand(kind: BackendKind) async throws {
        let session = try await Harness.make(kind).session("en", "gl")
        let error = await #expect(throws: TranslationError.notInstalled) { try await session.translate("hello") }
        #expect(error?.failureReason?.contains("sudo apt-get install -y apertium-en-gl") == true)
    }

    @Test(arguments: BackendKind.allCases)
    func undetectableTextIsUnableToIdentifyLanguage(kind: BackendKind) async throws {
        let session = try await Harness.make(kind).session(nil, "es")
        await #expect(throws: TranslationError.unableToIdentifyLanguage) { try await session.translate("no prefix here") }
    }

    @Test(arguments: BackendKind.allCases)
    func cancelledSessionIsAlreadyCancelled(kind: BackendKind) async throws {
        let session = try await Harness.make(kind).session("en", "es")
        session.cancel()
        await #expect(throws: TranslationError.alreadyCancelled) { try await session.translate("hello") }
        await #expect(throws: TranslationError.alreadyCancelled) { try await session.prepareTranslation() }
    }

    @Test(arguments: BackendKind.allCases)
    func engineFailureIsInternalError(kind: BackendKind) async throws {
        let session = try await Harness.make(kind).session("en", "es")
        let error = await #expect(throws: TranslationError.internalError) { try await session.translate("FAIL now") }
        #expect(error?.failureReason?.contains("fake engine failed") == true)
    }

    @Test func descriptionsAreReadable() {
        #expect(TranslationError.unsupportedLanguagePairing.description == "The language pairing is not supported")
        let error = TranslationError.notInstalled
        #expect(error.localizedDescription.contains("not installed"))
    }
}
