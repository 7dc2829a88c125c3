import Foundation
import Synchronization
import Testing
import TranslationCore
import TranslationTesting
@testable import TranslationKit
import TranslationService

/// Installing a supported pair on the local backend: the installer runs, the service is
/// rebuilt, the pair becomes installed.
@Suite struct PrepareTranslationTests {
    @Test func installsTheMissingPackageAndReloadsTheService() async throws {
        let probe = EngineProbe()
        let installer = RecordingInstaller()
        let backend = TranslationSession.Backend.local(makeService: {
            // The "installed" packages decide which pairs the rebuilt service has.
            let extra: [LanguagePair] = installer.installed.withLock { $0 }.contains("apertium-en-gl")
                ? [try! LanguagePair(parsing: "en-gl")] : []
            return await TranslationService(engines: [FakeEngine(name: "fake", served: fakePairs + extra, probe: probe)],
                                            detector: FakeDetector.prefix)
        }, installer: installer)
        let gl = Locale.Language(identifier: "gl")
        let availability = LanguageAvailability(backend: backend)
        #expect(await availability.status(from: Locale.Language(identifier: "en"), to: gl) == .supported)

        let session = TranslationSession(configuration: .init(source: Locale.Language(identifier: "en"), target: gl), backend: backend)
        let steps = Recorder<PreparationProgress>()
        try await session.prepareTranslation { steps.append($0) }

        #expect(installer.installed.withLock { $0 } == ["apertium-en-gl"])
        #expect(steps.all == [.checking, .installing(packages: ["apertium-en-gl"]),
                              .output("Setting up apertium-en-gl ..."), .installed(packages: ["apertium-en-gl"])])
        #expect(await availability.status(from: Locale.Language(identifier: "en"), to: gl) == .installed)
        #expect(try await session.translate("hello").targetText == "hello>gl")
    }

    @Test func installedSourceSessionsNeverInstall() async throws {
        let harness = try await Harness.make(.local)
        let session = TranslationSession(installedSource: Locale.Language(identifier: "en"),
                                         target: Locale.Language(identifier: "gl"), backend: harness.backend)
        #expect(session.canRequestDownloads == false)
        #expect(await session.isReady == false)
        let error = await #expect(throws: TranslationError.notInstalled) { try await session.prepareTranslation() }
        #expect(error?.failureReason?.contains("apt-get install -y apertium-en-gl") == true)
    }

    @Test func aptRunnerReportsEachOutputLine() async throws {
        let lines = Recorder<PreparationProgress>()
        let status = try await AptInstaller.run(["printf", "one\\ntwo\\nthree"]) { lines.append($0) }
        #expect(status == 0)
        #expect(lines.all == [.output("one"), .output("two"), .output("three")])
    }

    @Test func planPivotsThroughAnInstalledLeg() async throws {
        let installed: Set<LanguagePair> = [try LanguagePair(parsing: "en-es")]
        let plan = try await InstallPlan.make(from: "en", to: "pt", catalogue: .debian) { s, t in
            installed.contains(LanguagePair(source: s, target: t))
        }
        #expect(plan == .packages(["apertium-es-pt"]))
        let direct = try await InstallPlan.make(from: "en", to: "gl", catalogue: .debian) { _, _ in false }
        #expect(direct == .packages(["apertium-en-gl"]))
        let none = try await InstallPlan.make(from: "ast", to: "es", catalogue: .debian) { _, _ in false }
        #expect(none == .unavailable)
        // Esperanto → Spanish: apertium-eo-en brings eo→en, apertium-eng-spa en→es.
        let pivot = try await InstallPlan.make(from: "eo", to: "es", catalogue: .debian) { _, _ in false }
        #expect(pivot == .packages(["apertium-eo-en", "apertium-eng-spa"]))
    }
}
