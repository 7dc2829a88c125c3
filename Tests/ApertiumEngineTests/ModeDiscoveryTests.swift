import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

@Suite struct ModeDiscoveryTests {
    @Test func parsesModeNamesAndSkipsNonPairs() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-modes-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["eng-spa", "es-pt_BR", "eng-cat_valencia_iec2017", "cat-eng_US", "eco-es-fr", "README"] {
            try Data().write(to: dir.appendingPathComponent(name + (name == "README" ? "" : ".mode")))
        }
        let found = ModeDiscovery.scan([dir])
        #expect(Set(found.modes.values.map(\.name)) == ["eng-spa", "es-pt_BR", "eng-cat_valencia_iec2017", "cat-eng_US"])
        #expect(found.modes[LanguagePair(source: "en", target: "es")]?.name == "eng-spa")
        #expect(found.modes[LanguagePair(source: "es", target: "pt-BR")]?.name == "es-pt_BR")
        let valencia = try LanguagePair(parsing: "eng-cat_valencia_iec2017")
        #expect(valencia.target.variants == ["valencia", "iec2017"])
        #expect(found.modes[valencia] != nil)
        #expect(found.skipped["eco-es-fr"] != nil)
    }

    @Test func environmentAddsDirectoriesAndEngineReportsStatus() async throws {
        let dirs = ModeDiscovery.directories(configured: [URL(fileURLWithPath: "/a")], environment: ["GLOSSA_APERTIUM_MODES": "/b:/c"])
        #expect(dirs.map(\.path) == ["/a", "/b", "/c"])
        let engine = ApertiumEngine(configuration: .init(modeDirectories: [URL(fileURLWithPath: "/nonexistent")]), environment: [:])
        #expect(await engine.pairs().isEmpty)
        await #expect(throws: TranslationError.self) {
            try await engine.translate(["x"], pair: LanguagePair(source: "en", target: "es"), options: TranslationOptions())
        }
    }

    @Test(Requirement.apertium("eng-spa")) func installedModesAllParseAndEcoIsSkipped() async throws {
        let engine = ApertiumEngine()
        let status = await engine.status()
        try #require(!status.loaded.isEmpty, "no Apertium pairs installed (make deps-test)")
        #expect(status.loaded.contains("eng-spa"))
        if FileManager.default.fileExists(atPath: "/usr/share/apertium/modes/eco-es-fr.mode") {
            #expect(status.skipped["eco-es-fr"] != nil)
        }
        // Every installed pair's codes round-trip through Apertium's spelling.
        for mode in engine.installedModes {
            #expect(mode.pair.apertiumName == mode.name || (try? LanguagePair(parsing: mode.pair.apertiumName)) == mode.pair)
        }
    }
}
