import ApertiumEngine
import Foundation
import LanguageDetection
import ServerAPI
import Testing
import ServerTestSupport
import TranslationTesting
import TranslationKit
import TranslationService

/// The same Apple API over the real engines: Debian's Apertium pairs (installed by
/// `make test`'s install-deps) and CLD2, in this process and behind a real server.
extension Requirement {
    /// The pairs the real-engine tests translate with: English ↔ Spanish, and Spanish ↔
    /// Portuguese for the pivot.
    static var realApertiumPairs: ConditionTrait {
        apertium("eng-spa", "spa-eng", "es-pt", "pt-es", packages: ["apertium-eng-spa", "apertium-es-pt"])
    }
}

@Suite(.serialized, Requirement.realApertiumPairs) struct RealApertiumTests {

    /// One service over the real engines for the whole suite: pipelines are warm after first use.
    static let service = Task { await TranslationService(engines: [ApertiumEngine()], detector: GlossaDetector()) }

    private func backend(_ kind: BackendKind) async throws -> TranslationSession.Backend {
        let service = await Self.service.value
        switch kind {
        case .local:
            return .local(service, installer: RefusingInstaller())
        case .server:
            return .server(URL(string: try LiveServer.start(service: service).keptForTheProcess().url)!)
        }
    }

    private func session(_ kind: BackendKind, _ source: String?, _ target: String) async throws -> TranslationSession {
        TranslationSession(configuration: .init(source: source.map(Locale.Language.init(identifier:)),
                                                 target: Locale.Language(identifier: target)),
                           backend: try await backend(kind))
    }

    @Test(arguments: BackendKind.allCases)
    func translatesEnglishToSpanish(kind: BackendKind) async throws {
        let response = try await session(kind, "en", "es").translate("Good morning")
        #expect(response.targetText == "Buenos días")
    }

    @Test(arguments: BackendKind.allCases)
    func streamsABatchMatchedByIdentifier(kind: BackendKind) async throws {
        let texts = ["The cat sleeps.", "I like coffee.", "Where is the library?", "The house is big."]
        let requests = texts.enumerated().map { TranslationSession.Request(sourceText: $1, clientIdentifier: String($0)) }
        var byID: [String: String] = [:]
        for try await response in try await session(kind, "en", "es").translate(batch: requests) {
            byID[response.clientIdentifier!] = response.targetText
        }
        #expect(byID.count == texts.count)
        #expect(byID["1"]?.contains("café") == true)
        #expect(byID["3"]?.contains("casa") == true)
    }

    @Test(arguments: BackendKind.allCases)
    func aGlossaryFixesItsTermsAlsoThroughAPivot(kind: BackendKind) async throws {
        let glossary = ["house": "hogar", "red": "colorado"]
        let direct = TranslationSession(configuration: .init(source: Locale.Language(identifier: "en"), target: Locale.Language(identifier: "es"),
                                                             glossary: glossary), backend: try await backend(kind))
        let one = try await direct.translate("My house is red.")
        #expect(one.targetText.contains("hogar") && one.targetText.contains("colorado") && !one.targetText.contains("casa"), "\(one.targetText)")
        var streamed: [String] = []
        for try await response in direct.translate(batch: [.init(sourceText: "The house.")]) { streamed.append(response.targetText) }
        #expect(streamed.count == 1 && streamed[0].contains("hogar"), "\(streamed)")
        // English → Portuguese pivots through Spanish: the term put in place by the first step stays.
        let pivot = TranslationSession(configuration: .init(source: Locale.Language(identifier: "en"), target: Locale.Language(identifier: "pt"),
                                                            glossary: ["house": "lar"]), backend: try await backend(kind))
        #expect(try await pivot.translate("The house is big.").targetText.contains("lar"))
        // Without a source the glossary cannot apply: refused, never ignored.
        let detecting = TranslationSession(configuration: .init(target: Locale.Language(identifier: "es"), glossary: glossary),
                                           backend: try await backend(kind))
        await #expect(throws: TranslationError.unableToIdentifyLanguage) { _ = try await detecting.translate("My house.") }
    }

    @Test(arguments: BackendKind.allCases)
    func detectsTheSourceAndPivots(kind: BackendKind) async throws {
        let detected = try await session(kind, nil, "en").translate("¿Dónde está la biblioteca de la universidad?")
        #expect(detected.sourceLanguage.languageCode?.identifier == "es")
        #expect(detected.targetText.lowercased().contains("library"))
        // English → Portuguese has no direct pair: Spanish is the pivot.
        let pivot = try await session(kind, "en", "pt").translate("The house is big.")
        #expect(pivot.targetText.contains("casa"))
    }

    @Test(arguments: BackendKind.allCases)
    func availabilityOfRealPairs(kind: BackendKind) async throws {
        let availability = LanguageAvailability(backend: try await backend(kind))
        let en = Locale.Language(identifier: "en")
        #expect(await availability.status(from: en, to: Locale.Language(identifier: "es")) == .installed)
        #expect(await availability.status(from: en, to: Locale.Language(identifier: "pt")) == .installed)
        // apertium-mkd-eng is packaged by Debian but not among the default pairs: supported, and
        // installed only where someone installed it.
        let mkEng = FileManager.default.fileExists(atPath: "/usr/share/apertium/modes/mkd-eng.mode")
        #expect(await availability.status(from: Locale.Language(identifier: "mk"), to: en) == (mkEng ? .installed : .supported))
        #expect(await availability.status(from: en, to: Locale.Language(identifier: "ja")) == .unsupported)
    }
}
