import AccessControl
import DatabaseTestSupport
import Foundation
import HTTPTestSupport
@testable import ServerAPI
import Documents
import Synchronization
import Testing
import TranslationTesting

/// A request's billed characters are counted once (``RequestFacts``): the key's charge, DeepL's
/// `billed_characters`, `/v2/usage` and `/metrics` give one figure, and a DeepL document whose
/// translation fails after its upload was answered gives its charge back.
@Suite("One request, one billed figure, read by every layer", .serialized)
struct RequestFactsTests {
    @Test func deepLBilledCharactersTheChargeAndMetricsAgree() async throws {
        let (server, _) = try await KeyedServer.start(try await StoreKind.sqlite.location())
        defer { Task { await server.stop() } }
        let (key, secret) = try await server.store.create(name: "facts", charactersPerMonth: nil, requestsPerMinute: nil)
        // Code points, not what a reader sees: "café" with e + U+0301 is 5, a toned thumbs-up 2, "día" 3.
        let texts = ["cafe\u{301}", "\u{1F44D}\u{1F3FD}", "día"]
        let body = try JSONSerialization.data(withJSONObject: ["text": texts, "target_lang": "ES", "source_lang": "EN",
                                                               "show_billed_characters": true])
        let answer = try await server.live.post("/v2/translate", String(decoding: body, as: UTF8.self), contentType: "application/json",
                                                headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
        #expect(answer.status == 200)
        let translations = try #require((try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])?["translations"] as? [[String: Any]])
        let billed = translations.compactMap { $0["billed_characters"] as? Int }
        #expect(billed == [5, 2, 3])
        #expect(try await server.store.usage(of: key, period: .containing(Date())).characters == 10)
        let usage = try await server.live.get("/v2/usage", headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
        #expect(usage.text.contains(#""character_count":10"#) || usage.text.contains(#""character_count": 10"#), "\(usage.text)")
        let metrics = try await server.live.get("/metrics")
        #expect(metrics.text.contains(#"glossa_characters_translated_total{endpoint="deepl_translate"} 10"#))
    }

    @Test func aDocumentJobThatFailsGivesItsChargeBack() async throws {
        let (server, _) = try await KeyedServer.start(try await StoreKind.sqlite.location())
        defer { Task { await server.stop() } }
        let (key, secret) = try await server.store.create(name: "documents", charactersPerMonth: 1000, requestsPerMinute: nil)
        let auth = ["Authorization": "DeepL-Auth-Key \(secret)"]
        func upload(_ text: String) async throws -> (id: String, key: String) {
            let (type, body) = APyEndpointTests.multipart(["target_lang": "ES", "source_lang": "EN"], file: ("a.txt", Array(text.utf8)))
            let response = try #require(await server.live.client().request("POST", "/v2/document",
                                                                           headers: auth.merging(["Content-Type": type]) { $1 }, body: body))
            #expect(response.status == 200, "\(response.text)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: String])
            return (try #require(object["document_id"]), try #require(object["document_key"]))
        }
        func finalStatus(_ job: (id: String, key: String)) async throws -> String {
            for _ in 0..<200 {
                let status = try await server.live.get("/v2/document/\(job.id)?document_key=\(job.key)", headers: auth)
                if status.text.contains(#""error""#) { return "error" }
                if status.text.contains(#""done""#) {
                    // What DeepL reports for the document is what the key was charged.
                    let object = try JSONSerialization.jsonObject(with: Data(status.text.utf8)) as? [String: Any]
                    return "done, billed \(object?["billed_characters"] as? Int ?? -1)"
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            return "still translating"
        }
        func used() async throws -> Int { try await server.store.usage(of: key, period: .containing(Date())).characters }

        // The fake engine fails texts containing FAIL: the job fails after the upload was charged.
        #expect(try await finalStatus(try await upload("Hello FAIL world\n")) == "error")
        #expect(try await eventually { (try? await used()) == 0 })
        #expect(try await finalStatus(try await upload("Hello world\n")) == "done, billed 11")
        #expect(try await used() == 11)
    }

    @Test func aRequestsDocumentIsOpenedOnceForBillingAndTranslation() throws {
        let facts = RequestFacts(billing: nil)
        let opened = Mutex(0)
        let translator = DocumentTranslator()
        func open() throws(DocumentError) -> OpenedDocument {
            try facts.document { () throws(DocumentError) in
                opened.withLock { $0 += 1 }
                return try translator.open(Array("Hello world\n\n2026\n".utf8))
            }
        }
        #expect(try open().billedCharacters == 11)
        #expect(try open().sampleText() == "Hello world\n")
        #expect(opened.withLock { $0 } == 1)
        // A document that cannot be read is refused alike every time, without a second reading.
        let broken = RequestFacts(billing: nil)
        for _ in 0..<2 {
            #expect(throws: DocumentError.self) {
                try broken.document { () throws(DocumentError) in
                    opened.withLock { $0 += 1 }
                    return try translator.open([0x50, 0x4B, 0x03, 0x04, 0xFF])
                }
            }
        }
        #expect(opened.withLock { $0 } == 2)
    }
}
