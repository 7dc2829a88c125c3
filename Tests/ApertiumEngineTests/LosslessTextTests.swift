import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// Every character that the engine does not translate comes back as it came in: generated texts
/// mix words that en→es translates with pieces it cannot (every printable ASCII symbol, emoji,
/// decomposed letters, right-to-left words, 10 KB words), and every such piece must be found,
/// byte for byte, in the translation, in text and in HTML.
@Suite(.serialized, Requirement.apertium("eng-spa")) struct LosslessTextTests {
    static let translatable = ["the", "house", "is", "red", "I", "have", "good", "morning", "and", "dog"]
    /// Each printable ASCII character that is neither a letter nor a digit.
    static let symbols = (0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }.filter { !$0.isLetter && !$0.isNumber }
    static let untranslatable: [String] = [
        "👍🏽", "🇪🇸", "👨‍👩‍👧", "✓", "Qe\u{301}vran", "Zu\u{308}rich", "Xo\u{308}lmu\u{30A}", "q\u{308}x\u{301}z",
        "שלום", "مرحبا", "\u{200F}עולם\u{200F}", "\u{202B}سلام\u{202C}", "Ωmega\u{2126}", "ﬁne\u{FB01}",
    ]

    /// One generated text and the pieces that must survive it.
    struct Case {
        var text: String
        var pieces: [String]
    }

    static func generate(_ seed: UInt64, html: Bool) -> Case {
        var random = SplitMix64(seed: seed)
        var text = "", pieces: [String] = []
        let blanks = [" ", "  ", "\n", "\t", " \n\n "]
        for _ in 0..<(8 + Int(random.next() % 12)) {
            let piece: String
            switch random.next() % 4 {
            case 0:
                text += translatable[Int(random.next() % UInt64(translatable.count))]
                text += blanks[Int(random.next() % UInt64(blanks.count))]
                continue
            case 1:
                let count = 1 + Int(random.next() % 3)
                piece = String((0..<count).map { _ in symbols[Int(random.next() % UInt64(symbols.count))] })
            case 2:
                piece = untranslatable[Int(random.next() % UInt64(untranslatable.count))]
            default:
                piece = random.next() % 3 == 0
                    ? String((0..<10_240).map { _ in Character(Unicode.Scalar(UInt8(0x61 + random.next() % 26))) })
                    : "zq" + String(random.next() % 100_000, radix: 36) + "xw"
            }
            let written = html ? escapeHTML(piece) : piece
            text += written + blanks[Int(random.next() % UInt64(blanks.count))]
            pieces.append(written)
        }
        return Case(text: text, pieces: pieces)
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Whether `text` holds `piece` byte for byte (String comparison would allow other Unicode forms).
    static func containsBytes(_ text: String, _ piece: String) -> Bool {
        let t = Array(text.utf8), p = Array(piece.utf8)
        guard p.count <= t.count else { return false }
        return (0...(t.count - p.count)).contains { t[$0] == p[0] && Array(t[$0..<($0 + p.count)]) == p }
    }

    @Test(arguments: [TextFormat.text, .html])
    func untranslatedPiecesSurvive(format: TextFormat) async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let cases = (0..<40).map { Self.generate(UInt64($0), html: format == .html) }
            let out = try await engine.translate(cases.map(\.text), pair: EngineIntegrationTests.engSpa,
                                                 options: TranslationOptions(format: format))
            for (n, c) in cases.enumerated() {
                for piece in c.pieces {
                    #expect(Self.containsBytes(out[n], piece), "case \(n): lost \(piece.prefix(40).debugDescription) from \(c.text.prefix(300).debugDescription) → \(out[n].prefix(300).debugDescription)")
                }
                #expect(!out[n].contains("*") || c.text.contains("*"), "case \(n): a * appeared: \(out[n].prefix(300))")
            }
        }
    }

    @Test func issueExamplesComeBackIntact() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let texts = ["The price is ~500 francs.", "Zu\u{308}rich is a city.", String(repeating: "x", count: 5000),
                         "Hello Zorblax from Springfield.", "A <b>bold</b> word.",
                         // Its first chunk holds no word: lrx-proc used to lose the frame's NUL.
                         "^ " + String(repeating: "q", count: 3000)]
            let out = try await engine.translate(texts, pair: EngineIntegrationTests.engSpa, options: TranslationOptions())
            #expect(out[0] == "El precio es ~500 francs.")
            #expect(Self.containsBytes(out[1], "Zu\u{308}rich"), "\(out[1].unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(out[2] == texts[2])
            #expect(out[3] == "Hola Zorblax De Springfield.")
            #expect(out[4] == "Un <b>intrépido</b> palabra.")
            #expect(out[5] == texts[5])
        }
    }

    @Test func marksOnlyWhenAskedFor() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let pair = EngineIntegrationTests.engSpa
            let text = ["Hello Zorblax from Springfield."]
            let plain = try await engine.translate(text, pair: pair, options: TranslationOptions())
            let marked = try await engine.translate(text, pair: pair, options: TranslationOptions(markUnknownWords: true))
            #expect(plain == ["Hola Zorblax De Springfield."])
            #expect(marked == ["Hola *Zorblax De *Springfield."])
        }
    }
}
