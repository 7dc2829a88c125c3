import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// The translation of a text depends on that text alone: FLORES-200 dev lines of every default
/// pair, sent in three different orders and batchings, one after another through the same warm
/// pipelines, come back byte-identical each time, and identical to `apertium -u MODE` run on each
/// line alone (for a sample of lines: one `apertium` process per line is slow).
///
/// `GLOSSA_DETERMINISM_SAMPLE` sets the lines per pair checked against `apertium` (default 20;
/// `all` checks all 997, about five minutes per pair on two cores).
@Suite(.serialized) struct DeterminismTests {
    /// The directions of the default pairs (scripts/install-deps.sh) and their FLORES source files.
    static let pairs: [(mode: String, flores: String)] = [
        ("eng-spa", "eng_Latn"), ("spa-eng", "spa_Latn"), ("eng-cat", "eng_Latn"), ("cat-eng", "cat_Latn"),
        ("spa-cat", "spa_Latn"), ("cat-spa", "cat_Latn"), ("es-pt", "spa_Latn"), ("pt-es", "por_Latn"),
        ("fr-es", "fra_Latn"), ("es-fr", "spa_Latn"), ("es-gl", "spa_Latn"), ("gl-es", "glg_Latn"),
    ]

    @Test(Requirement.apertium("eng-spa", "spa-eng", "eng-cat", "cat-eng", "spa-cat", "cat-spa", "es-pt", "pt-es", "fr-es", "es-fr", "es-gl", "gl-es",
                                packages: ["apertium-eng-spa", "apertium-eng-cat", "apertium-spa-cat", "apertium-es-pt", "apertium-fr-es",
                                           "apertium-es-gl"]),
          Requirement.flores("eng_Latn", "spa_Latn", "cat_Latn", "por_Latn", "fra_Latn", "glg_Latn"),
          arguments: pairs.map(\.mode))
    func floresLinesDependOnNothingButThemselves(mode: String) async throws {
        let flores = try #require(Self.pairs.first { $0.mode == mode }?.flores)
        let modeFile = "/usr/share/apertium/modes/\(mode).mode"
        try #require(FileManager.default.fileExists(atPath: modeFile), "\(mode) is not installed (make deps-test)")
        let lines = try String(contentsOf: TaggerResetTests.flores.appendingPathComponent("\(flores).dev"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        try #require(lines.count > 100, "FLORES-200 dev is missing in ../shared/data/flores200-dev")
        let pair = try LanguagePair(parsing: mode)
        let engine = ApertiumEngine()
        do {
            try await check(mode: mode, pair: pair, lines: lines, engine: engine)
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }

    private func check(mode: String, pair: LanguagePair, lines: [String], engine: ApertiumEngine) async throws {
        try #require(await engine.status().skipped[ResettingTagger.executableName] == nil, "glossa-apertium-tagger is not built")

        // Three orders and batchings, each after the one before, through the same pipelines.
        var random = SplitMix64(seed: 11)
        let orders: [(name: String, order: [Int], batch: Int)] = [
            ("in order, one batch", Array(lines.indices), lines.count),
            ("reversed, batches of 32", Array(lines.indices.reversed()), 32),
            ("shuffled, batches of 7", Array(lines.indices).shuffled(using: &random), 7),
        ]
        var answers: [[String]] = []
        for (_, order, batch) in orders {
            var out = [String](repeating: "", count: lines.count)
            for start in stride(from: 0, to: order.count, by: batch) {
                let indices = Array(order[start..<min(start + batch, order.count)])
                let translated = try await engine.translate(indices.map { lines[$0] }, pair: pair, options: TranslationOptions())
                for (k, index) in indices.enumerated() { out[index] = translated[k] }
            }
            answers.append(out)
        }
        for (n, order) in orders.enumerated().dropFirst() {
            let differing = lines.indices.filter { answers[n][$0] != answers[0][$0] }
            #expect(differing.isEmpty, "\(mode), \(order.name): \(differing.count) lines differ from the first pass, e.g. line \(differing.first ?? 0)")
        }

        // Against the raw command, one process per line, for a sample spread over the file.
        let sample = Self.sampleSize(lines.count)
        for index in stride(from: 0, to: lines.count, by: max(1, lines.count / sample)).prefix(sample) {
            let raw = String(decoding: try RealTool.run("/usr/bin/apertium", ["-u", mode], input: Array(lines[index].utf8)), as: UTF8.self)
            for (n, order) in orders.enumerated() {
                #expect(answers[n][index] == raw, "\(mode) line \(index), \(order.name): \(lines[index])")
            }
        }
    }

    /// Where a long text is cut into chunks changes nothing that a sentence end does not change:
    /// here the only `. ` in the second half of the first 256 bytes is the one in `U.S.`, and a
    /// cut there made eng-spa end a sentence (`En los EE.UU. Los oficiales dicen`); the answer is
    /// `apertium -u`'s on the whole text.
    @Test(Requirement.apertium("eng-spa")) func aCutNeverFallsAfterInitials() async throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/share/apertium/modes/eng-spa.mode"), "eng-spa is not installed (make deps-test)")
        let a = "The house is red and the garden is very green, and the children play in it every single day of the week with friends."
        let b = "In the U.S. officials say that the plan is good and that the people in every city and every town and every village of the whole country agree with them."
        let text = [a, b, a].joined(separator: " ")
        let engine = ApertiumEngine()
        do {
            try #require(await engine.status().skipped[ResettingTagger.executableName] == nil, "glossa-apertium-tagger is not built")
            let translated = try await engine.translate([text], pair: try LanguagePair(parsing: "eng-spa"), options: TranslationOptions())
            let raw = String(decoding: try RealTool.run("/usr/bin/apertium", ["-u", "eng-spa"], input: Array(text.utf8)), as: UTF8.self)
            #expect(translated == [raw])
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }

    static func sampleSize(_ lines: Int) -> Int {
        let setting = ProcessInfo.processInfo.environment["GLOSSA_DETERMINISM_SAMPLE"] ?? "20"
        return setting == "all" ? lines : max(1, min(lines, Int(setting) ?? 20))
    }
}

/// A small seeded generator, so a shuffle or a generated text is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
