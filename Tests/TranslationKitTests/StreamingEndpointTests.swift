import Foundation
import GlossaWire
import HTTPServer
import HTTPTestSupport
import ServerAPI
import Testing
import ServerTestSupport
import TranslationCore
import TranslationTesting
import TranslationService

/// `POST /glossa/v1/translate/stream` and `GET /glossa/v1/pairs` on the wire, read with a raw
/// HTTP/1.1 client so the framing itself is checked.
@Suite struct StreamingEndpointTests {
    private func start() async throws -> HTTPServer {
        let service = await TranslationService(engines: [FakeEngine(name: "fake", served: fakePairs, probe: EngineProbe())],
                                               detector: FakeDetector.prefix)
        return try LiveServer.start(service: service).keptForTheProcess().server
    }

    private func post(_ server: HTTPServer, _ body: String) async throws -> RawResponse {
        let response = try await RawHTTPClient(port: server.port).request(
            "POST", "/glossa/v1/translate/stream", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        return try #require(response)
    }

    private func lines(_ response: RawResponse) throws -> [StreamLine] {
        try response.text.split(separator: "\n").map { try JSONDecoder().decode(StreamLine.self, from: Data($0.utf8)) }
    }

    @Test func answersChunkedNDJSONWithOneLinePerTextAndATerminalLine() async throws {
        let server = try await start()
        let response = try await post(server, #"{"q":["hello","FAIL","en:hi"],"target":"es","clientIdentifiers":["a",null,"c"]}"#)
        #expect(response.status == 200)
        #expect(response.chunked)
        #expect(response.header("content-type")?.hasPrefix("application/x-ndjson") == true)
        let lines = try lines(response)
        #expect(lines.count == 4)
        #expect(lines.last == .terminal(count: 3, errors: 0))
        let byIndex = Dictionary(uniqueKeysWithValues: lines.dropLast().map { ($0.index!, $0) })
        // No source: "hello" has no language prefix, so the fake detector finds no language in
        // it: it comes back unchanged, its source undetermined (`und`), never failing the batch.
        #expect(byIndex[0] == .result(index: 0, clientIdentifier: "a", translatedText: "hello",
                                      sourceLanguage: "und", detectedSourceLanguage: "und"))
        #expect(byIndex[1]?.translatedText == "FAIL" && byIndex[1]?.sourceLanguage == "und")
        #expect(byIndex[2] == .result(index: 2, clientIdentifier: "c", translatedText: "en:hi>es",
                                      sourceLanguage: "en", detectedSourceLanguage: "en"))
    }

    @Test func aGivenSourceIsNotReportedAsDetectedAndAnEngineFailureIsAnErrorLine() async throws {
        let server = try await start()
        let lines = try lines(try await post(server, #"{"q":["hello","FAIL"],"source":"en","target":"es"}"#))
        let byIndex = Dictionary(uniqueKeysWithValues: lines.dropLast().map { ($0.index!, $0) })
        #expect(byIndex[0] == .result(index: 0, clientIdentifier: nil, translatedText: "hello>es", sourceLanguage: "en", detectedSourceLanguage: nil))
        #expect(byIndex[1]?.error?.reason == "engineFailure")
        #expect(byIndex[1]?.error?.code == 500)
    }

    @Test func refusesABadBatchWithGooglesEnvelopeAndGlossasKind() async throws {
        let server = try await start()
        for (body, reason) in [(#"{"q":["x"],"target":"xx-nope"}"#, "invalidLanguage"),
                               (#"{"q":["x"]}"#, "missing_parameter"),
                               (#"{"q":[],"target":"es"}"#, "missing_parameter"),
                               (#"{"q":["x","y"],"target":"es","clientIdentifiers":["a"]}"#, "malformed_request"),
                               ("not json", "malformed_request")] {
            let response = try await post(server, body)
            #expect(response.status == 400, "\(body)")
            let json = response.json as? [String: Any]
            let error = json?["error"] as? [String: Any]
            let first = (error?["errors"] as? [[String: Any]])?.first
            #expect(first?["reason"] as? String == reason, "\(body)")
            #expect((error?["message"] as? String)?.isEmpty == false)
        }
    }

    @Test func aLoneStringIsABatchOfOneAndAFieldOfTheWrongTypeIsNamed() async throws {
        let server = try await start()
        // A string q is read as Google v2 reads it: one text.
        let one = try lines(try await post(server, #"{"q":"hello","source":"en","target":"es"}"#))
        #expect(one == [.result(index: 0, clientIdentifier: nil, translatedText: "hello>es", sourceLanguage: "en", detectedSourceLanguage: nil),
                        .terminal(count: 1, errors: 0)])
        // JSON with a field of the wrong type is not "not JSON": the message names the field.
        for (body, field) in [(#"{"q":5,"target":"es"}"#, "q"), (#"{"q":["a",3],"target":"es"}"#, "q"),
                              (#"{"q":["a"],"target":7}"#, "target")] {
            let response = try await post(server, body)
            #expect(response.status == 400, "\(body)")
            let message = ((response.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix(field) && message.contains("wrong type") && !message.contains("must be JSON"), "\(body): \(message)")
        }
    }

    @Test func pairsListsDirectAndPivotDirections() async throws {
        let server = try await start()
        let response = try #require(try await RawHTTPClient(port: server.port).request("GET", "/glossa/v1/pairs"))
        let pairs = try JSONDecoder().decode(PairsResponse.self, from: Data(response.body)).pairs
        #expect(pairs.contains(PairsResponse.Pair(source: "en", target: "es", path: ["en", "es"])))
        #expect(pairs.contains(PairsResponse.Pair(source: "en", target: "ca", path: ["en", "es", "ca"])))
    }

    @Test func theOpenAPIDocumentDescribesTheStreamingEndpoint() async throws {
        let server = try await start()
        let response = try #require(try await RawHTTPClient(port: server.port).request("GET", "/openapi.json"))
        let paths = (response.json as? [String: Any])?["paths"] as? [String: Any]
        let post = (paths?["/glossa/v1/translate/stream"] as? [String: Any])?["post"] as? [String: Any]
        let ok = ((post?["responses"] as? [String: Any])?["200"] as? [String: Any])?["content"] as? [String: Any]
        #expect(ok?["application/x-ndjson"] != nil)
        #expect(post?["requestBody"] != nil)
        // A line that fails says why with its own reason (an unsupported target, for one), listed in the line schema.
        let schema = (ok?["application/x-ndjson"] as? [String: Any])?["schema"] as? [String: Any]
        let kinds = schema?["oneOf"] as? [[String: Any]]
        let error = ((kinds?.dropFirst().first?["properties"] as? [String: Any])?["error"] as? [String: Any])?["properties"] as? [String: Any]
        let reasons = (error?["reason"] as? [String: Any])?["enum"] as? [String] ?? []
        #expect(reasons.contains("unsupportedTargetLanguage") && reasons.contains("engineFailure") && reasons.contains("unableToIdentifyLanguage"))
        #expect(paths?["/glossa/v1/pairs"] != nil)
    }
}
