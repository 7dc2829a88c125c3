import AccessControl
import DatabaseTestSupport
import Foundation
import HTTPServer
import SQLDatabase
import Testing
@testable import ServerAPI

/// A sixth protocol registered in this one file: a keyed `echo_v1` dialect. Everything the server
/// lists about protocols is derived from the registry, so it is keyed under a bare
/// `--require-keys`, documented in `/openapi.json` and listed in `glossa serve --help` without a
/// line anywhere else.
private enum EchoDialect {
    static let registration = DialectRegistration(
        name: "echo_v1", title: "Echo API v1", version: "1",
        summary: "A protocol made up for this test: says back what it is given.",
        keys: .keyed(CredentialReader(places: [.header("X-Echo-Key")]), requiredByBareFlag: true),
        help: "Echo (/echo/v1/say)",
        schemas: Array(#"{"schemas": {"Reply": {"type": "object", "properties": {"said": {"type": "string"}}}}, "error": "Reply"}"#.utf8),
        make: make)

    static func make(_ context: DialectContext) -> Dialect {
        Dialect(registration, endpoints: [
            Endpoint("echo_v1_say", ["GET"], "/echo/v1/say", input: .queryAndForm, docs: EndpointDocs(
                summary: "Echo: say text back", parameters: [ParameterDoc("text", required: true, "What to say back.")],
                success: "{\"said\"}", schema: "echo_v1.Reply"), billing: Billing.codePoints(of: "text")) { request in
                let text = try request.parameters().last("text") ?? ""
                return EndpointResult(response: HTTPResponse.text("said: " + text), characters: text.count)
            },
        ], errors: ErrorEnvelope(render: { error, _ in
            HTTPResponse.text("echo error: " + error.message, status: HTTPStatus.code(for: error))
        }, documentation: [(401, "The key is missing or wrong.")]))
    }
}

@Suite("Dialects are registered once and every list is derived from the registry")
struct DialectRegistryTests {
    private let registry = DialectRegistry.standard.adding(EchoDialect.registration)

    @Test func theStandardListsAreDerived() {
        let standard = DialectRegistry.standard
        #expect(standard.keyedNames == ["google_v2", "google_v3", "ajax_v1", "apy", "libretranslate", "deepl", "glossa"])
        // APy is keyed (its clients may send key=) but open under a bare --require-keys, as in APy.
        #expect(standard.requiredByDefault == standard.keyedNames.filter { $0 != "apy" })
        #expect(!standard.keyedNames.contains("web_app"))
        var policy = AccessPolicy()
        policy.modes = ["google-v2": .required, "deepl": .required]
        #expect(standard.unknownNames(in: policy) == ["google-v2"])
    }

    @Test func aSixthDialectIsKeyedAndListedInHelp() {
        #expect(registry.keyedNames.last == "echo_v1")
        #expect(registry.requiredByDefault.contains("echo_v1"))
        let help = registry.endpointsHelp()
        #expect(help.contains("Echo (/echo/v1/say)"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 95 })
        #expect(!DialectRegistry.standard.endpointsHelp().contains("/echo/"))
        #expect(registry.protocolsSentence.hasSuffix("Web app and Echo API v1."))
    }

    @Test func aSixthDialectIsServedWithKeysAndDocumented() async throws {
        let location = try await StoreKind.sqlite.location()
        var policy = AccessPolicy()
        // What a bare --require-keys sets: the sixth dialect is among the keyed ones by registration alone.
        policy.modes = Dictionary(uniqueKeysWithValues: registry.requiredByDefault.map { ($0, KeyMode.required) })
        let store = KeyStore(database: Database(location))
        defer { store.database.close() }
        let access = AccessController(policy: policy, store: store) { _ in }
        var api = ServerAPIConfiguration()
        api.dialects = registry
        let live = try await LiveServer.start(access: access, api: api)
        defer { Task { await live.stop() } }

        let refused = try await live.get("/echo/v1/say?text=hi")
        #expect(refused.status == 401 && refused.text.hasPrefix("echo error: "))
        let (_, secret) = try await store.create(name: "echo", charactersPerMonth: nil, requestsPerMinute: nil)
        let answered = try await live.get("/echo/v1/say?text=hi", headers: ["X-Echo-Key": secret])
        #expect(answered.status == 200 && answered.text == "said: hi")

        let document = try await live.get("/openapi.json")
        #expect(document.status == 200)
        #expect(document.text.contains(#""/echo/v1/say""#))
        #expect(document.text.contains(#""echo_v1.Reply""#))
        #expect(document.text.contains("Echo API v1"))
        #expect(document.text.contains("say text back"))
    }
}
