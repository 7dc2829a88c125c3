import Foundation
import Testing
import TranslationCore
@testable import LanguageDetection

/// What the fallback costs on languages it has no profile for: CLD2's own test sentences
/// (libcld2-dev's unittest_data.h) for the languages outside the 35 FLORES profiles, cut into
/// every 1-, 2- and 3-word window. Prints a table; part of `make detect-accuracy`.
@Suite struct OutOfModelReportTests {
    static let header = "/usr/include/cld2/internal/unittest_data.h"

    /// (expected language, text) for every test string of a language outside the n-gram model.
    static func samples() throws -> [(LanguageCode, String)] {
        let model = Set(NGramDetector().modelLanguages.map(\.language))
        let source = try String(contentsOfFile: header, encoding: .utf8)
        var out: [(LanguageCode, String)] = []
        for line in source.split(separator: "\n") where line.hasPrefix("const char* kTeststr_") {
            guard let equals = line.firstIndex(of: "="), let open = line.firstIndex(of: "\""),
                  let close = line.lastIndex(of: "\""), open < close else { continue }
            let name = line[line.index(line.startIndex, offsetBy: 21)..<equals].trimmingCharacters(in: .whitespaces)
            let parts = name.split(separator: "_")
            // "<code>_<Script>" only (skips "sr_ME_Latn", "ms_close", "xx_Bugi", "en_Latn_bad_UTF8").
            guard parts.count == 2, parts[1].count == 4 || parts[1].dropLast().count == 4,
                  let language = CLD2Codes.language(fromCLD2: String(parts[0])),
                  !model.contains(language.language) else { continue }
            out.append((language, String(line[line.index(after: open)..<close])))
        }
        return out
    }

    @Test(.enabled(if: AccuracyReportTests.isWanted && FileManager.default.fileExists(atPath: header)))
    func outOfModelReport() throws {
        let samples = try Self.samples()
        let systems = AccuracyReportTests.systems
        var report = "\nLanguages outside the n-gram model: \(Set(samples.map(\.0)).count) languages from CLD2's unittest_data.h, every k-word window\n\n"
        report += "| System | " + [1, 2, 3].map { "\($0)-word windows" }.joined(separator: " | ") + " |\n|---|---:|---:|---:|\n"
        var rows = [[String]](repeating: [], count: systems.count)
        for width in 1...3 {
            var windows: [(LanguageCode, String)] = []
            for (language, text) in samples {
                let words = text.split(separator: " ")
                guard words.count >= width else { continue }
                for start in 0...(words.count - width) {
                    windows.append((language, words[start..<(start + width)].joined(separator: " ")))
                }
            }
            for (index, system) in systems.enumerated() {
                let right = windows.filter { AccuracyReportTests.isCorrect(system.detect($0.1), $0.0) }.count
                rows[index].append(String(format: "%.1f (n=%d)", 100 * Double(right) / Double(windows.count), windows.count))
            }
        }
        for (index, system) in systems.enumerated() { report += "| \(system.name) | " + rows[index].joined(separator: " | ") + " |\n" }
        print(report)
        #expect(samples.count > 50)
    }
}
