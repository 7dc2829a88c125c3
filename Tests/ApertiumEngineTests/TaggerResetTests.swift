import Foundation
import Testing
import TranslationTesting
@testable import ApertiumEngine

/// `glossa-apertium-tagger -z` answers every request exactly as a fresh `apertium-tagger` does on
/// that request alone, on a first pass and after a full pass over the same lines; the stock
/// tagger in `-z` does not (the state it keeps is described in glossa-apertium-tagger/main.cpp).
@Suite(.serialized) struct TaggerResetTests {
    /// FLORES-200 dev: GLOSSA_FLORES_DIR, else found from the repository root (`make test` runs there).
    static let flores = URL(fileURLWithPath: Requirement.floresDirectory)

    /// es→fr: 37 of 997 FLORES lines came out differently on a second pass through a warm tagger.
    @Test(Requirement.apertium("es-fr", packages: ["apertium-fr-es"]), Requirement.flores("spa_Latn"))
    func resettingTaggerAnswersEachRequestAsAFreshTagger() throws {
        let mode = URL(fileURLWithPath: "/usr/share/apertium/modes/es-fr.mode")
        try #require(FileManager.default.fileExists(atPath: mode.path), "apertium-fr-es is not installed (make deps-test)")
        let tagger = try #require(ResettingTagger.defaultLocation(), "glossa-apertium-tagger is not built (swift build)")
        let lines = try String(contentsOf: Self.flores.appendingPathComponent("spa_Latn.dev"), encoding: .utf8)
            .split(separator: "\n").prefix(300).map(String.init)
        let stages = try ApertiumPipeline.pipelineCommand(modeFile: mode.path).components(separatedBy: " | ")
            .map { $0.replacingOccurrences(of: "$1", with: "-g").replacingOccurrences(of: "$2", with: "") }
        let taggerIndex = try #require(stages.firstIndex { $0.hasPrefix("apertium-tagger ") })

        // The tagger's input for each line: the stages before it (which reset at a NUL) in -z.
        let frames = lines.map { TextDeformatter.deformat($0).bytes + [0] }
        let analysed = try Self.frames(RealTool.run("/bin/bash", ["-c", stages[..<taggerIndex].joined(separator: " | ")],
                                                   input: Array(frames.joined())), count: lines.count)
        let twice = Array(analysed.map { $0 + [0] }.joined()) + Array(analysed.map { $0 + [0] }.joined())
        let stage = stages[taggerIndex]
        let resetting = try Self.frames(RealTool.run("/bin/bash", ["-c", ResettingTagger.substitute(in: stage, tagger: tagger)], input: twice),
                                        count: 2 * lines.count)
        let stock = try Self.frames(RealTool.run("/bin/bash", ["-c", stage], input: twice), count: 2 * lines.count)

        var stockDiffers = 0
        for (i, frame) in analysed.enumerated() {
            // A fresh stock tagger, without -z, on this line alone: the reference.
            let fresh = try RealTool.run("/bin/bash", ["-c", stage.replacingOccurrences(of: " -z", with: "")], input: frame)
            #expect(resetting[i] == fresh, "line \(i), first pass: \(lines[i])")
            #expect(resetting[lines.count + i] == fresh, "line \(i), second pass: \(lines[i])")
            if stock[lines.count + i] != fresh { stockDiffers += 1 }
        }
        // The reference is able to tell: the stock tagger, warm, gets some of these lines wrong.
        #expect(stockDiffers > 0, "the stock apertium-tagger -z no longer keeps state: glossa-apertium-tagger may be retired")
    }

    @Test func onlyTaggerStagesAreReplaced() {
        let command = "lt-proc -z 'a.bin' | apertium-tagger -z -g $2 'a.prob' | apertium-pretransfer -z | cg-proc -z 'apertium-tagger x'"
        let replaced = ResettingTagger.substitute(in: command, tagger: URL(fileURLWithPath: "/opt/it's/glossa-apertium-tagger"))
        #expect(replaced == "lt-proc -z 'a.bin' | '/opt/it'\\''s/glossa-apertium-tagger' -z -g $2 'a.prob' | apertium-pretransfer -z | cg-proc -z 'apertium-tagger x'")
    }

    /// The NUL-separated frames of `output` (a trailing NUL ends the last one).
    static func frames(_ output: [UInt8], count: Int) throws -> [[UInt8]] {
        let parts = output.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        try #require(parts.count >= count, "expected \(count) frames, got \(parts.count)")
        return Array(parts.prefix(count))
    }
}
