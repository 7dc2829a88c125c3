// The README's Swift example, compiled and run against a real server over the real Apertium
// engines. Between the README markers, this is the README's block line for line (leading spaces
// aside), less the lines marked `// test only`, with `url` for "http://127.0.0.1:8080":
// tests/test_readme.py checks it, so the README cannot show code that does not build or run.
// README begin
import Foundation
import ServerAPI  // test only
import Testing  // test only
import ServerTestSupport  // test only
import TranslationTesting  // test only
import TranslationKit

@Test(Requirement.realApertiumPairs) func theReadmesSwiftExampleRunsAgainstAServer() async throws {  // test only
    let url = try LiveServer.start(service: await RealApertiumTests.service.value).keptForTheProcess().url  // test only
    var printed: [String] = []  // test only
    func print(_ id: String, _ text: String) { printed.append("\(id) \(text)") }  // test only
let session = TranslationSession(
    configuration: .init(source: Locale.Language(identifier: "en"), target: Locale.Language(identifier: "es")),
    backend: .server(URL(string: url)!, apiKey: nil))
let response = try await session.translate("Good morning")          // response.targetText: "Buenos días"
    #expect(response.targetText == "Buenos días")  // test only
let requests = ["Milk", "Coffee"].enumerated().map { TranslationSession.Request(sourceText: $1, clientIdentifier: "\($0)") }
for try await result in session.translate(batch: requests) {        // each result as soon as it is ready
    print(result.clientIdentifier ?? "", result.targetText)
}
    #expect(Set(printed) == ["0 Leche", "1 Café"])  // test only
}  // test only
// README end
