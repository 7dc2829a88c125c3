import Foundation
import Testing
import TranslationCore
@testable import LanguageDetection

/// The accuracy report: FLORES-200 dev, the 197 lines per language the n-gram model never saw,
/// as full sentences and as short prefixes, for CLD2 alone, CLD2 best-effort, the n-gram
/// fallback alone and the product (CLD2 + fallback). Prints a Markdown table; asserts only
/// sanity floors. Print it with `make detect-accuracy` (which sets GLOSSA_ACCURACY_REPORT=1; the
/// report takes ~25 s in a debug build, so a plain `make test` skips it). Reads the FLORES
/// directory GLOSSA_FLORES_DIR, default /work/shared/data/flores200-dev.
@Suite struct AccuracyReportTests {
    static let directory = ProcessInfo.processInfo.environment["GLOSSA_FLORES_DIR"] ?? "/work/shared/data/flores200-dev"
    static var isWanted: Bool {
        ProcessInfo.processInfo.environment["GLOSSA_ACCURACY_REPORT"] == "1"
            && FileManager.default.fileExists(atPath: directory + "/eng_Latn.dev")
    }

    /// How a held-out line is cut.
    enum Cut: String, CaseIterable {
        case sentence = "full sentence", words1 = "1 word", words2 = "2 words", words3 = "3 words", chars20 = "20 chars"

        func apply(_ line: String) -> String {
            switch self {
            case .sentence: return line
            case .chars20: return String(line.prefix(20))
            case .words1, .words2, .words3:
                let count = self == .words1 ? 1 : self == .words2 ? 2 : 3
                return line.split(separator: " ").prefix(count).joined(separator: " ")
            }
        }
    }

    /// The systems compared, each a function from text to detection.
    static let systems: [(name: String, detect: @Sendable (String) -> Detection)] = [
        ("CLD2 alone", { CLD2Detector.detection(from: CLD2.detect($0), cap: 1, reliable: false) ?? .unknown }),
        ("CLD2 best-effort", { CLD2Detector.detection(from: CLD2.detect($0, bestEffort: true), cap: 1, reliable: false) ?? .unknown }),
        ("n-gram fallback alone", { NGramDetector().detection(for: $0, hint: nil) }),
        ("CLD2 + fallback (product)", { CLD2Detector().detection(for: $0, hint: nil) }),
    ]

    /// Whether a detection names the expected language (script too, for Chinese).
    static func isCorrect(_ detection: Detection, _ expected: LanguageCode) -> Bool {
        guard let language = detection.language else { return false }
        return language.language == expected.language && (expected.script == nil || language.script == expected.script)
    }

    @Test(.enabled(if: AccuracyReportTests.isWanted, "set GLOSSA_ACCURACY_REPORT=1 (and GLOSSA_FLORES_DIR) to run"))
    func floresHoldOutReport() throws {
        var correct = [[Int]](repeating: [Int](repeating: 0, count: Cut.allCases.count), count: Self.systems.count)
        // Calibration of the product's confidence: per fifth of 0...1, (answers, right answers).
        var bins = [(Int, Int)](repeating: (0, 0), count: 5)
        var total = 0
        var perLanguage: [(String, Double, Double)] = []
        for (stem, code) in FLORESLabels.codes.sorted(by: { $0.key < $1.key }) {
            let text = try String(contentsOfFile: "\(Self.directory)/\(stem).dev", encoding: .utf8)
            let lines = text.split(separator: "\n").dropFirst(FLORESLabels.trainingLines).map(String.init)
            let expected = try LanguageCode(parsing: code)
            var languageRight = [0, 0]
            for line in lines {
                for (cutIndex, cut) in Cut.allCases.enumerated() {
                    let sample = cut.apply(line)
                    for (index, system) in Self.systems.enumerated() {
                        let detection = system.detect(sample)
                        let ok = Self.isCorrect(detection, expected)
                        if ok { correct[index][cutIndex] += 1 }
                        if index == 3 {
                            if detection.language != nil {
                                let bin = min(4, Int(detection.confidence * 5))
                                bins[bin].0 += 1
                                if ok { bins[bin].1 += 1 }
                            }
                            if cut == .words2 && ok { languageRight[0] += 1 }
                            if cut == .sentence && ok { languageRight[1] += 1 }
                        }
                    }
                }
            }
            total += lines.count
            perLanguage.append((code, 100 * Double(languageRight[1]) / Double(lines.count), 100 * Double(languageRight[0]) / Double(lines.count)))
        }
        func percent(_ n: Int) -> String { String(format: "%.1f", 100 * Double(n) / Double(total)) }
        var report = "\nAccuracy (%) on FLORES-200 dev lines \(FLORESLabels.trainingLines + 1)-997 (held out), \(FLORESLabels.codes.count) languages, \(total) lines each cut\n\n"
        report += "| System | " + Cut.allCases.map(\.rawValue).joined(separator: " | ") + " |\n"
        report += "|---|" + String(repeating: "---:|", count: Cut.allCases.count) + "\n"
        for (index, system) in Self.systems.enumerated() {
            report += "| \(system.name) | " + correct[index].map(percent).joined(separator: " | ") + " |\n"
        }
        let product = 3
        report += "\nProduct calibration (all cuts): confidence range → answers, % right\n"
        for (index, bin) in bins.enumerated() {
            report += String(format: "  %.1f-%.1f: %5d answers, %5.1f%% right\n", Double(index) / 5, Double(index + 1) / 5,
                             bin.0, bin.0 == 0 ? 0 : 100 * Double(bin.1) / Double(bin.0))
        }
        report += "\nProduct per language (full sentence / 2 words): "
        report += perLanguage.map { String(format: "%@ %.0f/%.0f", $0.0, $0.1, $0.2) }.joined(separator: ", ") + "\n"
        print(report)

        // Sanity floors, well under the measured figures: they catch a broken build (tables not
        // loaded, fallback not wired), not small regressions.
        let sentence = Cut.allCases.firstIndex(of: .sentence)!
        #expect(Double(correct[product][sentence]) / Double(total) > 0.85)
        for cutIndex in Cut.allCases.indices {
            #expect(correct[product][cutIndex] >= correct[0][cutIndex], "product below CLD2 alone on \(Cut.allCases[cutIndex].rawValue)")
        }
    }
}
