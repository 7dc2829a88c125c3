import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// Analysis modes derived from the installed pairs, run warm, against the `apertium` command
/// running the same modes exported as mode files (what APy runs).
@Suite(.serialized) struct LanguageModeTests {
    @Test func derivesTheStagesOfAPairAsModes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-lm-\(UUID().uuidString).mode")
        try Data("lt-proc -w '/d/eng-spa.automorf.bin' | apertium-tagger -g $2 '/d/eng-spa.prob' | apertium-pretransfer | lt-proc -b '/d/eng-spa.autobil.bin' | apertium-transfer x y | lt-proc $1 '/d/eng-spa.autogen.bin' | lt-proc -p '/d/p.bin'\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let pair = ApertiumMode(pair: LanguagePair(source: "en", target: "es"), name: "eng-spa", file: file)
        let modes = LanguageModeDiscovery.discover(pairs: [pair], directories: [])
        #expect(Set(modes.map(\.info.name)) == ["eng-spa-morph", "eng-morph", "eng-spa-tagger", "eng-tagger", "eng-spa-autobil", "eng-spa-gener", "spa-gener"])
        #expect(modes.map(\.info) == modes.map(\.info).sorted())
        let byName = Dictionary(uniqueKeysWithValues: modes.map { ($0.info.name, $0) })
        #expect(byName["eng-morph"]?.command == "lt-proc -w '/d/eng-spa.automorf.bin'")
        #expect(byName["eng-morph"]?.info.key == "eng" && byName["eng-spa-morph"]?.info.key == "eng-spa")
        #expect(byName["eng-tagger"]?.command == "lt-proc -w '/d/eng-spa.automorf.bin' | apertium-tagger -g $2 '/d/eng-spa.prob'")
        #expect(byName["spa-gener"]?.command == "lt-proc $1 '/d/eng-spa.autogen.bin'")
        #expect(byName["eng-spa-autobil"]?.dictionary == "/d/eng-spa.autobil.bin")
    }

    /// The modes `discover` derives from one pair whose mode file holds `command`, by name.
    private func derivedModes(_ name: String, _ source: String, _ target: String, _ command: String) throws -> [String: LanguageModeDiscovery.Mode] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-lm-\(UUID().uuidString).mode")
        try Data(command.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let pair = ApertiumMode(pair: LanguagePair(source: try LanguageCode(parsing: source), target: try LanguageCode(parsing: target)), name: name, file: file)
        return Dictionary(uniqueKeysWithValues: LanguageModeDiscovery.discover(pairs: [pair], directories: []).map { ($0.info.name, $0) })
    }

    @Test func aGeneratorKeepsTheStagesThatChooseItsForms() throws {
        // nob-nno's generator writes `^ja<ij>/ja$` for cg-proc to choose from: the mode runs both,
        // and stops before post-generation as every generator mode does.
        let byName = try derivedModes("nob-nno", "nb", "nn", "lt-proc -w '/d/nob-nno.automorf.bin' | lt-proc -b '/d/nob-nno.autobil.bin' | lt-proc $1 -b '/d/nob-nno.autogen.bin' | cg-proc -1 -n -g '/d/nob-nno.genprefs.rlx.bin' | lt-proc -p '/d/nob-nno.autopgen.bin'\n")
        #expect(byName["nno-gener"]?.command == "lt-proc $1 -b '/d/nob-nno.autogen.bin' | cg-proc -1 -n -g '/d/nob-nno.genprefs.rlx.bin'")
        #expect(byName["nob-nno-gener"]?.command == byName["nno-gener"]?.command)
        // spa-cat's generator is followed by post-generation alone (`-x`, then `-p`): it stays alone.
        let catModes = try derivedModes("spa-cat", "es", "ca", "lt-proc -w '/d/spa-cat.automorf.bin' | lt-proc -b '/d/spa-cat.autobil.bin' | lt-proc $1 '/d/spa-cat.autogen.bin' | lt-proc -x '/d/v.bin' | lt-proc -p '/d/p.bin'\n")
        #expect(catModes["cat-gener"]?.command == "lt-proc $1 '/d/spa-cat.autogen.bin'")
    }

    @Test func aLanguagesOwnModesComeFromATranslationPairBeforeASpellingConverter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-lm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func pair(_ name: String, _ source: String, _ target: String, _ command: String) throws -> ApertiumMode {
            let file = directory.appendingPathComponent("\(name).mode")
            try Data(command.utf8).write(to: file)
            return ApertiumMode(pair: LanguagePair(source: try LanguageCode(parsing: source), target: try LanguageCode(parsing: target)), name: name, file: file)
        }
        // nno-nno_e sorts first by name; its analyser lacks `-e`.
        let converter = try pair("nno-nno_e", "nn", "nn-x-e", "lt-proc -w '/d/a.bin' | lt-proc $1 '/d/e.autogen.bin'\n")
        let translation = try pair("nno-nob", "nn", "nb", "lt-proc -w -e '/d/a.bin' | lt-proc -b '/d/b.bin' | lt-proc $1 '/d/nob.autogen.bin'\n")
        let byName = Dictionary(uniqueKeysWithValues: LanguageModeDiscovery.discover(pairs: [converter, translation], directories: []).map { ($0.info.name, $0) })
        #expect(byName["nno-morph"]?.command == "lt-proc -w -e '/d/a.bin'")
        #expect(byName["nno-morph"]?.alternatives == ["lt-proc -w '/d/a.bin'"])
        #expect(byName["nno-nno_e-morph"]?.command == "lt-proc -w '/d/a.bin'")
    }

    @Test(Requirement.apertiumTools) func modesThatCannotRunAreSetAsideWithTheReason() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-lm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let present = directory.appendingPathComponent("eng.automorf.bin").path
        #expect(FileManager.default.createFile(atPath: present, contents: Data()))
        let missing = directory.appendingPathComponent("ca-eo.automorf.bin").path
        func mode(_ name: String, _ command: String, alternatives: [String] = []) -> LanguageModeDiscovery.Mode {
            LanguageModeDiscovery.Mode(info: LanguageModeInfo(kind: .analyzer, key: String(name.dropLast(6)), name: name),
                                       command: command, file: nil, dictionary: nil, alternatives: alternatives)
        }
        let (usable, unavailable) = LanguageModeDiscovery.usable([
            mode("eng-morph", "lt-proc -w '\(present)'"),
            mode("cat-epo-morph", "lt-proc -w '\(missing)'"),
            // A plain-language mode runs the first of its pairs' stages that can run.
            mode("cat-morph", "lt-proc -w '\(missing)'", alternatives: ["lt-proc -w '\(present)'"]),
            mode("xxx-morph", "glossa-no-such-program '\(present)'"),
        ], path: "/usr/bin:/bin")
        #expect(usable.map(\.info.name) == ["eng-morph", "cat-morph"])
        #expect(usable.last?.command == "lt-proc -w '\(present)'" && usable.last?.alternatives == [])
        #expect(unavailable == ["cat-epo-morph": "the mode file names \(missing), which does not exist",
                                "xxx-morph": "its pipeline runs glossa-no-such-program, which is not installed"])
    }

    @Test(Requirement.apertium("eng-spa")) func warmModesAnswerAsTheApertiumCommandDoes() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let names = Set(engine.languageModes().map(\.name))
            for name in ["eng-morph", "eng-tagger", "spa-gener", "eng-spa-morph", "eng-spa-autobil"] {
                #expect(names.contains(name), "\(name) missing from \(names.sorted().prefix(20))")
            }
            let export = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-lm-export-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: export) }
            // The export blocks on cold starts of each mode: on a thread of its own, so that the
            // cooperative pool keeps serving the suites running beside this one.
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
                Thread.detachNewThread {
                    done.resume(with: Result { try engine.exportLanguageModes(to: export, names: ["eng-morph", "eng-tagger", "spa-gener"]) })
                }
            }
            let texts = ["The houses are red. Zorblax is here", "I saw it", "a/b ^c$ [d] {e}", ""]
            for name in ["eng-morph", "eng-tagger"] {
                for text in texts {
                    let ours = try await engine.runLanguageMode(name, input: text, as: .text)
                    let raw = String(decoding: try RealTool.run("/usr/bin/apertium", ["-d", export.path, "-f", "txt", name], input: Array(text.utf8)), as: UTF8.self)
                    #expect(ours == raw, "\(name): \(text)")
                }
            }
            let stream = "^casa<n><f><pl>$[SEP]^ser<vbser><pri><p3><sg>$[SEP]^zorblax<n><m><sg>$"
            let generated = try await engine.runLanguageMode("spa-gener", input: stream, as: .stream)
            let raw = String(decoding: try RealTool.run("/usr/bin/apertium", ["-d", export.path, "-f", "none", "spa-gener"], input: Array(stream.utf8)), as: UTF8.self)
            #expect(generated == raw)
            #expect(generated.hasPrefix("casas[SEP]es[SEP]"))
            // Warm: the same pipeline answers again, the same way.
            #expect(try await engine.runLanguageMode("spa-gener", input: stream, as: .stream) == generated)
            let missing = await #expect(throws: TranslationError.self) { try await engine.runLanguageMode("xxx-morph", input: "a", as: .text) }
            #expect(missing?.kind == .notInstalled)
        }
    }

    @Test(Requirement.apertium("eng-spa")) func streamInputThatNeverEndsItsUnitIsRefusedAtOnce() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            // Each of these made lt-proc wait past the frame's end until the 30 s deadline, twice.
            for stream in ["^a<b$", "^\u{17}z\u{9F}<5\u{9E}k$", "^casa<n>$[SEP]^ser", "^a<b\\>$"] {
                let started = ContinuousClock.now
                let error = await #expect(throws: TranslationError.self) {
                    try await engine.runLanguageMode("spa-gener", input: stream, as: .stream)
                }
                #expect(error?.kind == .invalidInput, "\(stream)")
                #expect(ContinuousClock.now - started < .seconds(10), "\(stream)")
            }
            // The warm pipeline was never given them: it answers the next request as before.
            let next = try await engine.runLanguageMode("spa-gener", input: "^casa<n><f><pl>$", as: .stream)
            #expect(next == "casas")
        }
    }
}

/// What the stream check refuses: input that ends inside a lexical unit, and nothing else.
@Suite struct StreamInputCheckTests {
    @Test func inputThatEndsInsideAUnitIsNamed() {
        for (input, fragment) in [("^a<b$", "tag opened with < at character 3"), ("^abc", "opened with ^ at character 1"),
                                  ("^ab\\", "escapes nothing"), ("^a$ ^b", "opened with ^ at character 5"),
                                  ("^a<b\\>$", "never closed with >"), ("^a<b$ >", "opened with ^ at character 1"),
                                  ("[^a<b$]", "tag opened with < at character 4"),
                                  ("ñ ^é<b$", "tag opened with < at character 5")] {
            let problem = StreamInputCheck.problem(in: Array(input.utf8))
            #expect(problem?.contains(fragment) == true, "\(input): \(problem ?? "nil")")
        }
    }

    @Test func inputThatEndsOutsideEveryUnitPasses() {
        for input in ["", "^cat<n><pl>$", "^casa<n>$[SEP]^ser<v>$ tail", "^a\\<b$", "x\\", "x[abc", "$ x ]", "^a<b>c$",
                      "^a{b$", "plain text"] {
            #expect(StreamInputCheck.problem(in: Array(input.utf8)) == nil, "\(input)")
        }
    }
}
