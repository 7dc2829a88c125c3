import Testing
@testable import Documents

@Suite struct TextDocumentTests {
    @Test func plainTextParagraphsKeepTheirSeparatorsAndEncoding() async throws {
        let text = "First line\nstill first.\r\n\r\nSecond.\n\n  \n\nThird\n"
        let fake = FakeTranslator()
        let out = try await DocumentTranslator().translate(bytes(text), translate: fake.translate)
        #expect(out.format == .txt)
        #expect(String(decoding: out.bytes, as: UTF8.self) == text.uppercased())
        #expect(fake.calls.flatMap(\.0) == ["First line\nstill first.", "Second.", "Third"])
        #expect(fake.calls.allSatisfy { $0.1 == .text })
        // UTF-8 with a byte order mark, UTF-16 and Windows-1252 come back in their own encoding.
        let bom = [0xEF, 0xBB, 0xBF] + bytes("caf\u{E9}")
        #expect(try await DocumentTranslator().translate(bom, translate: fake.translate).bytes == [0xEF, 0xBB, 0xBF] + bytes("CAF\u{C9}"))
        let latin: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0x80]   // "café €" in Windows-1252
        #expect(try await DocumentTranslator().translate(latin, translate: fake.translate).bytes == [0x43, 0x41, 0x46, 0xC9, 0x20, 0x80])
        let utf16: [UInt8] = [0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00]
        #expect(try await DocumentTranslator().translate(utf16, translate: fake.translate).bytes == [0xFF, 0xFE, 0x48, 0x00, 0x49, 0x00])
    }

    @Test func htmlGoesWholeToTheEngine() async throws {
        let page = "<!DOCTYPE html><html><head><title>Hi</title></head><body><p>Hello <b>world</b></p></body></html>"
        let fake = FakeTranslator()
        let out = try await DocumentTranslator().translate(bytes(page), translate: fake.translate)
        #expect(out.format == .html)
        #expect(fake.calls.map(\.1) == [.html] && fake.calls[0].0 == [page])
        #expect(String(decoding: out.bytes, as: UTF8.self) == FakeTranslator.upper(page, html: true))
    }

    @Test func rtfBodyTextIsTranslatedAndTablesAndEscapesSurvive() async throws {
        let rtf = #"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\froman Times New Roman;}}{\colortbl;\red255\green0\blue0;}{\info{\title My title}}"#
            + #"{\*\generator Writer;}\pard Hello {\b bold} world\par caf\'e9 \u8364? na\u239?ve\par {\field{\*\fldinst HYPERLINK "x"}{\fldrslt link}}\tab done\par"#
            + "\r\n" + #"Hel{\i lo} there{\footnote \pard a note}\par 123\par}"#
        let fake = FakeTranslator()
        let out = try await DocumentTranslator().translate(bytes(rtf), translate: fake.translate)
        #expect(out.format == .rtf)
        let result = String(decoding: out.bytes, as: UTF8.self)
        #expect(result == #"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\froman Times New Roman;}}{\colortbl;\red255\green0\blue0;}{\info{\title My title}}"#
            + #"{\*\generator Writer;}\pard HELLO {\b BOLD} WORLD\par CAF\'c9 \'80 NA\'cfVE\par {\field{\*\fldinst HYPERLINK "x"}{\fldrslt LINK}}\tab DONE\par"#
            + "\r\n" + #"HELLO{\i } THERE{\footnote \pard A NOTE}\par 123\par}"#)
        let sent = fake.calls.flatMap(\.0)
        #expect(sent.contains("Hello <g1>bold<g2> world"))
        #expect(sent.contains("café € naïve"))
        #expect(!sent.contains { $0.contains("Times") || $0.contains("title") || $0.contains("HYPERLINK") || $0.contains("123") })
    }

    @Test func rtfWritesUnicodeWithTheFallbackCountInForce() async throws {
        let rtf = #"{\rtf1\ansi\ansicpg1251 {\uc2 \u1087??\u1088??}\par}"#
        let out = try await DocumentTranslator().translate(bytes(rtf), translate: FakeTranslator().translate)
        #expect(String(decoding: out.bytes, as: UTF8.self) == #"{\rtf1\ansi\ansicpg1251 {\uc2 \u1055??\u1056??}\par}"#)
    }

    @Test func unsupportedTypesAreNamed() async {
        for (input, mime) in [(bytes("%PDF-1.4 ..."), "application/pdf"), ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], "image/png"),
                              ([0x00, 0x01, 0x02, 0x03], "application/octet-stream"), (bytes("\\documentclass{article}"), "text/x-tex")] {
            let error = await #expect(throws: DocumentError.self) { try await DocumentTranslator().translate(input, translate: FakeTranslator().translate) }
            #expect(error?.code == .unsupportedType && error?.mimeType == mime)
        }
    }
}
