import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// Modes that write `lt-proc -g` on their generator (no `$1`): unmarked pipelines must not mark.
@Suite struct GeneratorOptionTests {
    @Test func aHardCodedGeneratorFlagBecomesTheOption() {
        let hardCoded = "lt-proc -z -e 'a.bin' | apertium-tagger -z -g $2 'a.prob' | lt-proc -z -g 'gen.bin' | lt-proc -z -p 'pgen.bin'"
        #expect(GeneratorOption.exposed(in: hardCoded)
            == "lt-proc -z -e 'a.bin' | apertium-tagger -z -g $2 'a.prob' | lt-proc -z $1 'gen.bin' | lt-proc -z -p 'pgen.bin'")
        let usual = "lt-proc -z 'a.bin' | lt-proc -z $1 'gen.bin' | lt-proc -z -g 'other.bin'"
        #expect(GeneratorOption.exposed(in: usual) == usual)
    }

    /// eng-spa's own mode rewritten with `-g` in place of `$1` (as afr-nld ships): the unmarked
    /// pool leaves unknown words unmarked, the marking pool marks them.
    @Test(Requirement.apertium("eng-spa")) func aModeWithoutTheOptionMarksOnlyWhenAsked() async throws {
        let original = URL(fileURLWithPath: "/usr/share/apertium/modes/eng-spa.mode")
        let text = try #require(try? String(contentsOf: original, encoding: .utf8), "Apertium eng-spa is not installed (make deps-test)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-generator-option-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try text.replacingOccurrences(of: "$1", with: "-g").write(to: directory.appendingPathComponent("eng-spa.mode"), atomically: true, encoding: .utf8)
        var configuration = ApertiumEngine.Configuration(modeDirectories: [directory])
        configuration.probeCache = nil
        let engine = ApertiumEngine(configuration: configuration)
        let pair = LanguagePair(source: "en", target: "es")
        do {
            let plain = try await engine.translate(["The Zorblax house."], pair: pair, options: TranslationOptions())
            let marked = try await engine.translate(["The Zorblax house."], pair: pair, options: TranslationOptions(markUnknownWords: true))
            #expect(!plain[0].contains("*"), "\(plain)")
            #expect(marked[0].contains("*Zorblax"), "\(marked)")
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }
}
