import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// A text in a batch comes back exactly as it does when translated alone, in its own place, in
/// text and HTML.
@Suite(.serialized, Requirement.apertium("eng-spa")) struct BatchIndependenceTests {
    @Test(Requirement.flores("eng_Latn")) func batchEqualsTextByText() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let pair = EngineIntegrationTests.engSpa
            let sentences = try String(contentsOfFile: Requirement.floresDirectory + "/eng_Latn.dev", encoding: .utf8)
                .split(separator: "\n").prefix(40).map(String.init)
            let texts = sentences + ["", "Good morning", "[not a tag] \\ ^ $ @ / { }"]
            let batch = try await engine.translate(texts, pair: pair, options: TranslationOptions())
            #expect(batch.count == texts.count)
            for (i, text) in texts.enumerated() {
                let alone = try await engine.translate([text], pair: pair, options: TranslationOptions())
                #expect(batch[i] == alone[0], "text \(i): \(text)")
            }
        }
    }

    @Test func batchedHTMLKeepsEachTextsTags() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let texts = (0..<30).map { "<p id=\"p\($0)\">The <b>house</b> number \($0) is red.</p>" }
            let out = try await engine.translate(texts, pair: EngineIntegrationTests.engSpa, options: TranslationOptions(format: .html))
            for (i, html) in out.enumerated() {
                #expect(html.hasPrefix("<p id=\"p\(i)\">") && html.hasSuffix("</p>") && html.contains("<b>"), "\(i): \(html)")
                #expect(html.contains("\(i)") && html.contains("casa"), "\(i): \(html)")
            }
        }
    }
}
