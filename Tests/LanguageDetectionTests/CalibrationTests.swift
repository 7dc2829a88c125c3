import Dispatch
import Foundation
import Testing
import TranslationCore
@testable import LanguageDetection

/// Calibration of the product's confidence: reliability diagrams on FLORES-200 dev lines the
/// model never trained on, cut as lingua cuts its test data: lines 701-800 (the held-back part
/// of the training data, on which the trainer fitted the calibration) and lines 801-997 (held
/// out from everything). Needs ../shared/data/flores200-dev (or GLOSSA_FLORES_DIR); skips, saying
/// so, without it.
@Suite struct CalibrationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let flores = ProcessInfo.processInfo.environment["GLOSSA_FLORES_DIR"]
        ?? repository.deletingLastPathComponent().appendingPathComponent("shared/data/flores200-dev").path
    static var hasData: Bool { FileManager.default.fileExists(atPath: flores + "/eng_Latn.dev") }

    /// (code, FLORES stem) of every model language that has FLORES text.
    static func languages() throws -> [(String, String)] {
        let table = try String(contentsOf: repository.appendingPathComponent("tests/tools/detector-model/languages.tsv"), encoding: .utf8)
        return table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            return line.hasPrefix("#") || fields.count < 2 || fields[1] == "-" ? nil : (fields[0], fields[1])
        }
    }

    struct Diagram: CustomStringConvertible {
        var bins = [(answers: Int, right: Int, confidence: Double)](repeating: (0, 0, 0), count: 10)
        var reliable = (answers: 0, wrong: 0)
        var confident = (answers: 0, right: 0)
        var accuracy: [Double] = [0, 0, 0]

        mutating func add(_ detection: Detection, right: Bool) {
            guard detection.language != nil else { return }
            let bin = min(9, Int(detection.confidence * 10))
            bins[bin].answers += 1
            bins[bin].confidence += detection.confidence
            if right { bins[bin].right += 1 }
            if detection.isReliable { reliable.answers += 1; if !right { reliable.wrong += 1 } }
            if detection.confidence >= 0.9 { confident.answers += 1; if right { confident.right += 1 } }
        }

        var description: String {
            var out = String(format: "mean accuracy: single words %.1f %%, word pairs %.1f %%, sentences %.1f %%\n", accuracy[0], accuracy[1], accuracy[2])
            out += "confidence bin: answers, mean confidence → share right\n"
            for (index, bin) in bins.enumerated() where bin.answers > 0 {
                out += String(format: "  %.1f-%.1f: %6d, %.3f → %.3f\n", Double(index) / 10, Double(index + 1) / 10, bin.answers,
                              bin.confidence / Double(bin.answers), Double(bin.right) / Double(bin.answers))
            }
            out += String(format: "confidence ≥ 0.9: %d answers, %.2f %% right; reliable: %d answers, %.2f %% wrong", confident.answers,
                          100 * Double(confident.right) / Double(max(1, confident.answers)), reliable.answers,
                          100 * Double(reliable.wrong) / Double(max(1, reliable.answers)))
            return out
        }
    }

    /// Runs on a Dispatch thread: ~200,000 detections would otherwise hold one of the few
    /// cooperative threads for a minute, starving the other suites' servers running beside it.
    static func diagram(lines range: Range<Int>) async throws -> Diagram {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(with: Result { try diagramNow(lines: range) })
            }
        }
    }

    private static func diagramNow(lines range: Range<Int>) throws -> Diagram {
        let detector = GlossaDetector()
        var diagram = Diagram()
        let languages = try languages()
        for (code, stem) in languages {
            let expected = try LanguageCode(parsing: code)
            let lines = try String(contentsOfFile: "\(flores)/\(stem).dev", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let cuts = HeldOutCuts(lines: Array(lines[range]))
            for (index, kind) in HeldOutCuts.Kind.allCases.enumerated() {
                var right = 0
                for item in cuts[kind] {
                    let detection = detector.detection(for: item, hint: nil)
                    let ok = detection.language.map { $0.language == expected.language && (expected.script == nil || $0.script == expected.script) } ?? false
                    if ok { right += 1 }
                    diagram.add(detection, right: ok)
                }
                diagram.accuracy[index] += 100 * Double(right) / Double(max(1, cuts[kind].count)) / Double(languages.count)
            }
        }
        return diagram
    }

    static func expectCalibrated(_ diagram: Diagram) {
        print(diagram)
        #expect(diagram.confident.answers > 1000)
        #expect(Double(diagram.confident.right) >= 0.97 * Double(diagram.confident.answers), "confidence ≥ 0.9 must be ≥ 97 % right")
        #expect(Double(diagram.reliable.wrong) < 0.03 * Double(diagram.reliable.answers), "isReliable must be wrong < 3 %")
        // Each well-filled bin's share right is near its mean confidence: calibrated, not just ranked.
        for bin in diagram.bins where bin.answers >= 300 {
            let gap = abs(Double(bin.right) / Double(bin.answers) - bin.confidence / Double(bin.answers))
            #expect(gap < 0.12, "bin with mean confidence \(bin.confidence / Double(bin.answers)) is right \(Double(bin.right) / Double(bin.answers))")
        }
    }

    @Test(.enabled(if: CalibrationTests.hasData, "needs FLORES-200 dev in ../shared/data/flores200-dev or GLOSSA_FLORES_DIR"))
    func heldBackLinesAreCalibrated() async throws {
        Self.expectCalibrated(try await Self.diagram(lines: 700..<800))
    }

    /// The held-out lines: calibration must carry over to text the trainer never saw, and the
    /// accuracy floors catch a broken model or decision rule (they sit a few points under the
    /// figures `make detect-accuracy` measures, so they are not noise-sensitive).
    @Test(.enabled(if: CalibrationTests.hasData, "needs FLORES-200 dev in ../shared/data/flores200-dev or GLOSSA_FLORES_DIR"))
    func heldOutLinesAreCalibratedAndAccurate() async throws {
        let diagram = try await Self.diagram(lines: 800..<997)
        Self.expectCalibrated(diagram)
        #expect(diagram.accuracy[0] > 70)
        #expect(diagram.accuracy[1] > 85)
        #expect(diagram.accuracy[2] > 95)
    }
}
