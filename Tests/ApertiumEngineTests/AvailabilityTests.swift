import Foundation
import Synchronization
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// Pairs that do not work: synthetic modes (through a mode directory of the test's own, as
/// `GLOSSA_APERTIUM_MODES` adds one) whose stage hangs, exits, or needs a missing file or program,
/// beside one that works (`sed` answers every NUL-framed request with its input). No broken Debian
/// package is needed.
@Suite struct AvailabilityTests {
    /// Mode name → pipeline. Pair names that no Debian package has, so the real directory,
    /// scanned too, cannot shadow them.
    static let synthetic: [String: String] = [
        "eng-ita": "sed -u ''",                                  // works: answers with its input
        "eng-deu": "tail -f /dev/null",                          // hangs: never reads, never answers
        "eng-jpn": "false",                                      // exits at once
        "eng-fin": "lt-proc '/usr/share/apertium/glossa-test-missing/eng-fin.automorf.bin'",
        "eng-swe": "glossa-no-such-stage -x",
    ]

    /// A directory with the synthetic modes; removed by the caller.
    static func modeDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-avail-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, command) in synthetic {
            try Data((command + "\n").utf8).write(to: dir.appendingPathComponent(name + ".mode"))
        }
        return dir
    }

    static func engine(_ dir: URL, cache: URL? = nil) -> ApertiumEngine {
        // Short limits: the synthetic hang must not cost the suite a minute.
        ApertiumEngine(configuration: .init(modeDirectories: [dir], requestTimeout: .seconds(3),
                                            probeTimeout: .seconds(3), probeCache: cache), environment: ProcessInfo.processInfo.environment)
    }

    static let ita = LanguagePair(source: "en", target: "it")
    static let deu = LanguagePair(source: "en", target: "de")
    static let jpn = LanguagePair(source: "en", target: "ja")
    static let fin = LanguagePair(source: "en", target: "fi")
    static let swe = LanguagePair(source: "en", target: "sv")

    @Test func inspectionFindsStagesAndFiles() {
        let inspection = ModeInspection(command: """

              lt-proc -w '/a/b.bin' | cg-proc "/a/c.rlx.bin" | apertium-tagger -g $2 /a/d.prob| lt-proc $1 '/a/b.bin'
            """)
        #expect(inspection.programs == ["lt-proc", "cg-proc", "apertium-tagger", "lt-proc"])
        #expect(inspection.files == [])  // `/a` does not exist: these are not taken for files
        let real = ModeInspection(command: "lt-proc '/usr/x/b.bin' | sed '/x/d' | sed -n '/ /!p' | tagger /usr/x/d.prob")
        #expect(real.files == ["/usr/x/b.bin", "/usr/x/d.prob"])
        #expect(inspection.problem(path: "/nonexistent")?.contains("runs lt-proc, which is not installed") == true)
        #expect(ModeInspection(command: "sed -u ''").problem(path: "/usr/bin:/bin") == nil)
    }

    @Test(Requirement.apertiumTools) func missingFilesAndProgramsAreUnavailableWithoutStartingAnything() async throws {
        let dir = try Self.modeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = Self.engine(dir)
        let unavailable = await engine.unavailablePairs()
        #expect(unavailable[Self.fin] == "the mode file names /usr/share/apertium/glossa-test-missing/eng-fin.automorf.bin, which does not exist")
        #expect(unavailable[Self.swe] == "its pipeline runs glossa-no-such-stage, which is not installed")
        #expect(!(await engine.pairs()).contains(Self.fin))
        let clock = ContinuousClock()
        let start = clock.now
        await #expect { try await engine.translate(["Hello"], pair: Self.fin, options: TranslationOptions()) } throws: {
            guard let e = $0 as? TranslationError else { return false }
            return e.kind == .unsupportedPair && e.message.contains("eng-fin is installed but does not work") && e.message.contains("/glossa-test-missing/")
        }
        #expect(clock.now - start < .seconds(1))
        await engine.shutdown()
    }

    @Test(Requirement.apertiumTools) func probeMarksHangingAndExitingPairsAndKeepsTheWorkingOne() async throws {
        let dir = try Self.modeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = Self.engine(dir)
        #expect(await engine.pairs().contains(Self.deu), "not probed yet: still offered")
        await engine.probe([Self.ita, Self.deu, Self.jpn]) { _, _ in }
        let unavailable = await engine.unavailablePairs()
        #expect(unavailable[Self.deu]?.contains("gave no answer to an empty request within 3 s (a stage hangs)") == true, "\(unavailable)")
        #expect(unavailable[Self.jpn]?.contains("broke on an empty request: it ") == true, "\(unavailable)")
        #expect(unavailable[Self.ita] == nil)
        let pairs = await engine.pairs()
        #expect(pairs.contains(Self.ita) && !pairs.contains(Self.deu) && !pairs.contains(Self.jpn))
        // A broken pair answers at once from now on; the working one translates.
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: TranslationError.self) { try await engine.translate(["Hello"], pair: Self.deu, options: TranslationOptions()) }
        #expect(clock.now - start < .seconds(1))
        #expect(try await engine.translate(["Hello there."], pair: Self.ita, options: TranslationOptions()) == ["Hello there."])
        let status = await engine.status()
        #expect(status.unavailable["eng-deu"] != nil && status.loaded.contains("eng-ita") && !status.loaded.contains("eng-deu"))
        await engine.shutdown()
    }

    @Test func aPairIsProbedOnFirstUseAndThenRefusedAtOnce() async throws {
        let dir = try Self.modeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = Self.engine(dir)
        await #expect { try await engine.translate(["Hello"], pair: Self.jpn, options: TranslationOptions()) } throws: {
            ($0 as? TranslationError)?.kind == .unsupportedPair
        }
        #expect(!(await engine.pairs()).contains(Self.jpn))
        #expect(await engine.pipelinePIDs(for: Self.jpn).isEmpty, "no pool was started for a broken pair")
        await engine.shutdown()
    }

    @Test(Requirement.apertiumTools) func verdictsAreCachedForTheSameFilesAndDropWhenAModeChanges() async throws {
        let dir = try Self.modeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("probes.json")
        let first = Self.engine(dir, cache: cache)
        await first.probe([Self.ita, Self.jpn]) { _, _ in }
        await first.shutdown()
        // A second engine (a later run) knows both verdicts before probing anything.
        let second = Self.engine(dir, cache: cache)
        #expect(await second.unavailablePairs()[Self.jpn]?.contains("broke on an empty request") == true)
        let probed = Mutex(-1)
        await second.probe([Self.ita, Self.jpn]) { _, total in probed.withLock { $0 = total } }
        #expect(probed.withLock { $0 } == 0)
        await second.shutdown()
        // Editing the mode file (a package upgrade) makes the old verdict void.
        try Data("sed -u 's/x/x/'\n".utf8).write(to: dir.appendingPathComponent("eng-jpn.mode"))
        let third = Self.engine(dir, cache: cache)
        #expect(await third.unavailablePairs()[Self.jpn] == nil)
        await third.probe([Self.jpn]) { _, _ in }
        #expect(await third.pairs().contains(Self.jpn))
        await third.shutdown()
    }

    @Test func twoBuildsShareTheCacheWithoutProbingEachOthersPairsAgain() async throws {
        let dir = try Self.modeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("probes.json")
        // Two builds differ in their resetting tagger, so in every fingerprint.
        func build(_ tagger: String) -> ApertiumEngine {
            ApertiumEngine(configuration: .init(modeDirectories: [dir], requestTimeout: .seconds(3), resettingTagger: URL(fileURLWithPath: tagger),
                                                probeTimeout: .seconds(3), probeCache: cache), environment: ProcessInfo.processInfo.environment)
        }
        func probed(_ engine: ApertiumEngine) async -> Int {
            let total = Mutex(-1)
            await engine.probe([Self.ita, Self.jpn]) { _, t in total.withLock { $0 = t } }
            await engine.shutdown()
            return total.withLock { $0 }
        }
        #expect(await probed(build("/bin/sed")) == 2)
        #expect(await probed(build("/bin/cat")) == 2)
        // Each build's verdicts survived the other's run.
        #expect(await probed(build("/bin/sed")) == 0)
        #expect(await probed(build("/bin/cat")) == 0)
    }

    @Test func probeTextsCoverEveryInstalledSourceAndAvoidStreamSyntax() {
        #expect(ProbeTexts.all["default"] != nil)
        for (code, text) in ProbeTexts.all {
            // Sent as they are: no character that Apertium's stream format reserves.
            #expect(!text.contains { "\\[]^$@/<>{}*#~".contains($0) }, "\(code)")
        }
        for mode in ApertiumEngine().installedModes {
            #expect(ProbeTexts.all[mode.pair.source.iso639_3] != nil, "no probe text for \(mode.name)'s source")
        }
    }
}
