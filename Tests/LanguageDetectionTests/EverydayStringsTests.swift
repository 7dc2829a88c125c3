import Foundation
import Testing
import TranslationCore
import LanguageDetection

/// Short everyday strings as people send them to a translation service (Data/everyday-strings.tsv:
/// greetings, thanks, yes/no, UI words; 100 in 20 languages, written for this test), through the
/// product detector. The traffic prior (tests/tools/detector-model/traffic.tsv) is what gets
/// "Hi" and "Ja, gerne" their obvious answers; no other item of a request and no client
/// header is used.
@Suite struct EverydayStringsTests {
    static func table() throws -> [(code: String, text: String)] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/everyday-strings.tsv")
        return try String(contentsOf: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let fields = line.split(separator: "\t", maxSplits: 1)
                return (String(fields[0]), String(fields[1]))
            }
    }

    /// 96 of 100 since the model learned UI vocabulary from gettext catalogues of other packages
    /// than the gettext test set's (2026-12-07; 93 before, 91 before the traffic priors): "Anuluj",
    /// "Annulla" and "Annuller" are now right. Still missed: "Vi ses" and "Ja tak" (Danish and
    /// Swedish share them), "Hei" (Finnish, Norwegian and Maori), and "Да, конечно", every word of
    /// which is Macedonian too. The floor is the issue's 95; nothing in the table was trained or tuned on.
    static let floor = 95

    @Test func everydayStringsGetTheObviousAnswer() async throws {
        let table = try Self.table()
        #expect(table.count == 100)
        let detections = await GlossaDetector().detect(table.map(\.text))
        var misses: [String] = []
        for ((code, text), detection) in zip(table, detections) where detection.language != LanguageCode(stringLiteral: code) {
            misses.append("\(text) (\(code)) → \(detection.language?.bcp47 ?? "und")")
        }
        #expect(table.count - misses.count >= Self.floor, "\(table.count - misses.count) right; missed: \(misses.joined(separator: "; "))")
    }

    /// The issue's examples: the obvious answer, and an honest (not reliable) confidence for the
    /// one-word ones that other languages share.
    @Test(arguments: [("Hi", "en"), ("OK", "en"), ("Merci", "fr"), ("Danke schön", "de"), ("Gracias", "es")])
    func shortGreetings(text: String, expected: String) async {
        let detection = await GlossaDetector().detect([text])[0]
        #expect(detection.language == LanguageCode(stringLiteral: expected), "\(text) → \(String(describing: detection.language))")
        #expect(detection.confidence > 0 && detection.confidence < 1)
    }
}
