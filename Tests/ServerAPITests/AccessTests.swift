import AccessControl
import DatabaseTestSupport
import Foundation
import HTTPTestSupport
import ServerAPI
import SQLDatabase
import Synchronization
import Testing

/// A live server checking keys against a real store (SQLite or PostgreSQL), and the store to
/// make keys in.
struct KeyedServer {
    let live: LiveServer
    let store: KeyStore

    static func start(_ location: DatabaseLocation, modes: [String: KeyMode]? = nil, keyRequestsPerMinute: Int? = nil,
                      addressRequestsPerMinute: Int? = nil, trustedProxies: String = "") async throws -> (KeyedServer, LogSink) {
        var policy = AccessPolicy()
        policy.modes = modes ?? Dictionary(uniqueKeysWithValues: DialectRegistry.standard.requiredByDefault.map { ($0, KeyMode.required) })
        policy.keyRequestsPerMinute = keyRequestsPerMinute
        policy.addressRequestsPerMinute = addressRequestsPerMinute
        policy.trustedProxies = try TrustedProxies(parsing: trustedProxies)
        let store = KeyStore(database: Database(location))
        let sink = LogSink()
        let access = AccessController(policy: policy, store: store) { line in sink.lines.withLock { $0.append(line) } }
        let live = try await LiveServer.start(access: access)
        return (KeyedServer(live: live, store: store), sink)
    }

    func stop() async {
        await live.stop()
        store.database.close()
    }
}

/// What the access controller logged.
final class LogSink: Sendable {
    let lines = Mutex<[String]>([])
}

// Serialized: each test runs servers and dozens of clients; one at a time keeps them from
// starving the other suites' servers on a loaded 2-core machine.
@Suite("Keys, quotas and rate limits through the real middleware, on SQLite and on a real PostgreSQL", .serialized)
struct AccessTests {
    @Test("Each protocol answers a missing key, a wrong key, a rate limit and a spent quota in its own envelope",
          arguments: StoreKind.available)
    func envelopes(_ kind: StoreKind) async throws {
        let (server, _) = try await KeyedServer.start(try await kind.location())
        defer { Task { await server.stop() } }
        let live = server.live
        let (_, secret) = try await server.store.create(name: "small", charactersPerMonth: 10, requestsPerMinute: nil)
        let (_, slow) = try await server.store.create(name: "slow", charactersPerMonth: nil, requestsPerMinute: 1)
        let form = "application/x-www-form-urlencoded"

        // Google v2: 403 forbidden without a key, 400 keyInvalid for a wrong one, 403 dailyLimitExceeded.
        let none = try await live.get("/language/translate/v2?q=hello&target=es&prettyPrint=false")
        #expect(none.status == 403 && none.text.contains(#""reason":"forbidden""#))
        let wrong = try await live.get("/language/translate/v2?q=hello&target=es&prettyPrint=false&key=glossa_wrong")
        #expect(wrong.status == 400 && wrong.text.contains(#""reason":"keyInvalid""#) && wrong.text.contains("API key not valid"))
        let ok = try await live.get("/language/translate/v2?q=hello&target=es&prettyPrint=false", headers: ["X-Goog-Api-Key": secret])
        #expect(ok.status == 200 && ok.text.contains("es:hello"))
        let over = try await live.get("/language/translate/v2?q=world%21&target=es&prettyPrint=false&key=\(secret)")
        #expect(over.status == 403 && over.text.contains(#""reason":"dailyLimitExceeded""#))
        #expect(Int(over.header("retry-after") ?? "") ?? 0 > 0)
        // 5 of 10 characters are used: 5 more fit exactly.
        let fits = try await live.get("/language/translate/v2?q=world&target=es&key=\(secret)")
        #expect(fits.status == 200)
        _ = try await live.get("/language/translate/v2?q=a&target=es&key=\(slow)")
        let rate = try await live.get("/language/translate/v2?q=a&target=es&prettyPrint=false&key=\(slow)")
        #expect(rate.status == 403 && rate.text.contains(#""reason":"userRateLimitExceeded""#) && rate.header("retry-after") != nil)

        // LibreTranslate: 400 without a key, 403 for a wrong one, 429 Slowdown with Retry-After.
        let ltNone = try await live.post("/translate", "q=a&source=en&target=es", contentType: form)
        #expect(ltNone.status == 400 && ltNone.text == "{\"error\":\"Please contact the server operator to get an API key\"}\n")
        let ltWrong = try await live.post("/translate", "q=a&source=en&target=es&api_key=nope", contentType: form)
        #expect(ltWrong.status == 403 && ltWrong.text == "{\"error\":\"Invalid API key\"}\n")
        let ltRate = try await live.post("/translate", "q=a&source=en&target=es&api_key=\(slow)", contentType: form)
        #expect(ltRate.status == 429 && ltRate.text == "{\"error\":\"Slowdown: 1 per 1 minute\"}\n" && ltRate.header("retry-after") != nil)
        let ltQuota = try await live.post("/translate", "q=a&source=en&target=es&api_key=\(secret)", contentType: form)
        #expect(ltQuota.status == 429 && ltQuota.text.hasPrefix("{\"error\":\"Slowdown: Character quota exceeded") && ltQuota.header("retry-after") != nil)

        // DeepL: 403 for a missing or wrong key, 456 for the quota, 429 for the rate.
        let deepLBody = #"{"text": ["a"], "target_lang": "ES"}"#
        let dNone = try await live.post("/v2/translate", deepLBody, contentType: "application/json")
        #expect(dNone.status == 403)
        let dQuota = try await live.post("/v2/translate", deepLBody, contentType: "application/json",
                                         headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
        #expect(dQuota.status == 456 && dQuota.text == #"{"message":"Quota for this billing period has been exceeded."}"#)
        let dRate = try await live.post("/v2/translate", deepLBody, contentType: "application/json",
                                        headers: ["Authorization": "DeepL-Auth-Key \(slow)"])
        #expect(dRate.status == 429 && dRate.header("retry-after") != nil)
        let usage = try await live.get("/v2/usage", headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
        #expect(usage.status == 200 && usage.text == #"{"character_count":10,"character_limit":10}"#)

        // Glossa's own usage, and APy open by default (APy has no keys).
        let mine = try await live.get("/glossa/v1/usage", headers: ["Authorization": "Bearer \(secret)"])
        #expect(mine.status == 200 && mine.text.contains(#""used": 10,"#) && !mine.text.contains(secret))
        // Health, metrics and documents, and what LibreTranslate's clients read before they have a key, are open.
        for open in ["/health", "/glossa/v1/health", "/metrics", "/openapi.json", "/languages", "/frontend/settings", "/glossa/v1/pairs"] {
            #expect(try await live.get(open).status == 200, "\(open)")
        }
        let apy = try await live.get("/translate?langpair=en|es&q=hello")
        #expect(apy.status == 200 && apy.text.contains("es:hello"))
    }

    @Test("A document is billed the code points of its text before it is translated; over the quota it is refused in each protocol's envelope",
          arguments: [StoreKind.sqlite])
    func documents(_ kind: StoreKind) async throws {
        let (server, _) = try await KeyedServer.start(try await kind.location())
        defer { Task { await server.stop() } }
        let live = server.live
        let (key, secret) = try await server.store.create(name: "docs", charactersPerMonth: 30, requestsPerMinute: nil)
        // Two paragraphs with letters (11 + 8 code points); "2026" has none, is kept as it is and costs nothing.
        let text = Array("Hello world\n\n2026\n\nGood day\n".utf8)
        let (type, body) = APyEndpointTests.multipart(["source": "en", "target": "es", "api_key": secret], file: ("a.txt", text))
        func upload(_ path: String, _ body: [UInt8], _ type: String, headers: [String: String] = [:]) async throws -> RawResponse {
            try #require(await live.client().request("POST", path, headers: headers.merging(["Content-Type": type]) { $1 }, body: body))
        }
        let first = try await upload("/translate_file", body, type)
        #expect(first.status == 200 && first.text.contains("translatedFileUrl"))
        #expect(try await server.store.usage(of: key, period: .containing(Date())).characters == 19)
        // 19 more would pass 30: refused before any translation, in LibreTranslate's and DeepL's signals.
        let second = try await upload("/translate_file", body, type)
        #expect(second.status == 429 && second.text.contains("Character quota exceeded"))
        let (dType, dBody) = APyEndpointTests.multipart(["target_lang": "ES"], file: ("a.txt", text))
        let deepL = try await upload("/v2/document", dBody, dType, headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
        #expect(deepL.status == 456)
        // APy is open by default: its document is translated and charged to no key.
        let (aType, aBody) = APyEndpointTests.multipart(["langpair": "eng|spa"], file: ("a.txt", text))
        #expect(try await upload("/translateDoc", aBody, aType).status == 200)
        #expect(try await server.store.usage(of: key, period: .containing(Date())).characters == 19)
    }

    @Test("64 concurrent HTTP clients racing one key with a quota of N characters: exactly the best fill ≤ N is accepted",
          arguments: StoreKind.available)
    func race(_ kind: StoreKind) async throws {
        let (server, _) = try await KeyedServer.start(try await kind.location())
        defer { Task { await server.stop() } }
        let quota = 500
        let (key, secret) = try await server.store.create(name: "race", charactersPerMonth: quota, requestsPerMinute: nil)
        let live = server.live
        // Each client sends 2 requests of 7 characters (896 asked for, 500 available);
        // DeepL bills the code points of the texts.
        let accepted = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<64 {
                group.addTask {
                    var characters = 0, other = 0
                    for _ in 0..<2 {
                        let response = try await live.post("/v2/translate", #"{"text": ["añadido"], "target_lang": "ES"}"#,
                                                           contentType: "application/json",
                                                           headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
                        if response.status == 200 { characters += 7 } else if response.status != 456 { other += 1 }
                    }
                    return (characters, other)
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        let used = try await server.store.usage(of: key, period: .containing(Date()))
        #expect(accepted.1 == 0, "every refusal is a 456")
        // 500 is not a multiple of 7: the best fill is 497 (71 requests), and every charge that fitted was taken.
        #expect(accepted.0 == 497 && used.characters == 497 && used.requests == 71)
    }

    @Test("Malformed keys and headers get the protocol's 400/403, never a 500", arguments: [StoreKind.sqlite])
    func malformed(_ kind: StoreKind) async throws {
        let (server, _) = try await KeyedServer.start(try await kind.location())
        defer { Task { await server.stop() } }
        let live = server.live
        let long = String(repeating: "x", count: 3000)
        let cases: [(String, String, [String: String])] = [
            ("GET", "/language/translate/v2?q=a&target=es&key=", [:]),
            ("GET", "/language/translate/v2?q=a&target=es&key=%00%FF%C3", [:]),
            ("GET", "/language/translate/v2?q=a&target=es&key=\(long)", [:]),
            ("GET", "/language/translate/v2?q=a&target=es", ["X-Goog-Api-Key": "glossa_\u{7f}"]),
            ("GET", "/language/translate/v2?q=a&target=es&key=a&key=b", [:]),
            ("GET", "/v2/usage", ["Authorization": "DeepL-Auth-Key "]),
            ("GET", "/v2/usage", ["Authorization": "DeepL-Auth-Key glossa_\(String(repeating: "A", count: 43))"]),
            ("GET", "/v2/usage", ["Authorization": "Basic Zm9vOmJhcg=="]),
            ("GET", "/glossa/v1/usage", ["Authorization": "Bearer"]),
            ("POST", "/translate?api_key=%E2%80%AE", [:]),
        ]
        for (method, target, headers) in cases {
            let response = try await live.send(method, target, method == "POST" ? "q=a&source=en&target=es" : "",
                                               contentType: method == "POST" ? "application/x-www-form-urlencoded" : nil, headers: headers)
            #expect([400, 401, 403].contains(response.status), "\(method) \(target) \(headers): \(response.status) \(response.text)")
        }
    }

    @Test("A revoked key is refused within a second, also by a server that did not revoke it", arguments: StoreKind.available)
    func revocation(_ kind: StoreKind) async throws {
        let location = try await kind.location()
        let (first, _) = try await KeyedServer.start(location)
        let (second, _) = try await KeyedServer.start(location)
        defer { Task { await first.stop(); await second.stop() } }
        let (key, secret) = try await first.store.create(name: "leaving", charactersPerMonth: nil, requestsPerMinute: nil)
        for server in [first, second] {
            #expect(try await server.live.get("/language/translate/v2?q=a&target=es&key=\(secret)").status == 200)
        }
        _ = try await first.store.revoke(id: key.id)
        let revoked = ContinuousClock.now
        // The promise: a request that arrives a second after the revocation is refused, on every
        // server (sent then, so it arrives no earlier, however slow a loaded machine is).
        try await Task.sleep(until: revoked + .seconds(1), clock: .continuous)
        for server in [first, second] {
            let response = try await server.live.get("/language/translate/v2?q=a&target=es&prettyPrint=false&key=\(secret)")
            #expect(response.status == 400 && response.text.contains(#""reason":"keyInvalid""#))
        }
    }

    @Test("Callers without a key are limited per address; X-Forwarded-For counts only from a trusted proxy")
    func addresses() async throws {
        let location = try await StoreKind.sqlite.location()
        let (untrusted, _) = try await KeyedServer.start(location, modes: [:], addressRequestsPerMinute: 2)
        defer { Task { await untrusted.stop() } }
        let spoof = { (n: Int) in ["X-Forwarded-For": "198.51.100.\(n)"] }
        #expect(try await untrusted.live.get("/translate?langpair=en|es&q=a", headers: spoof(1)).status == 200)
        #expect(try await untrusted.live.get("/translate?langpair=en|es&q=a", headers: spoof(2)).status == 200)
        // A different claimed address from the same peer is the same caller.
        let third = try await untrusted.live.get("/language/translate/v2?q=a&target=es&prettyPrint=false", headers: spoof(3))
        #expect(third.status == 429 && third.text.contains(#""status":"RESOURCE_EXHAUSTED""#) && third.header("retry-after") != nil)

        let (proxied, _) = try await KeyedServer.start(location, modes: [:], addressRequestsPerMinute: 1, trustedProxies: "127.0.0.1")
        defer { Task { await proxied.stop() } }
        #expect(try await proxied.live.get("/translate?langpair=en|es&q=a", headers: spoof(1)).status == 200)
        #expect(try await proxied.live.get("/translate?langpair=en|es&q=a", headers: spoof(2)).status == 200)
        #expect(try await proxied.live.get("/translate?langpair=en|es&q=a", headers: spoof(1)).status == 429)
    }

    @Test("The database down: 503 in each protocol's envelope with Retry-After; keyless APy keeps translating; back when it is")
    func databaseDown() async throws {
        guard PostgresServer.unavailableReason == nil else {
            print("skipped: \(PostgresServer.unavailableReason!)")
            return
        }
        let postgres = try await PostgresServer.dedicated()
        let location = try await postgres.makeDatabase()
        let (server, log) = try await KeyedServer.start(location)
        defer { Task { await server.stop(); try? await postgres.stop() } }
        let live = server.live
        let (_, secret) = try await server.store.create(name: "k", charactersPerMonth: 100, requestsPerMinute: nil)
        #expect(try await live.get("/language/translate/v2?q=a&target=es&key=\(secret)").status == 200)
        try await postgres.stop()
        // A key remembered from before may be served for its time to live; then the charge fails.
        try await Task.sleep(for: .seconds(1))
        let google = try await live.get("/language/translate/v2?q=b&target=es&prettyPrint=false&key=\(secret)")
        #expect(google.status == 503 && google.text.contains(#""status":"UNAVAILABLE""#) && google.header("retry-after") != nil)
        let lt = try await live.post("/translate", "q=a&source=en&target=es&api_key=\(secret)", contentType: "application/x-www-form-urlencoded")
        #expect(lt.status == 503 && lt.text.hasPrefix("{\"error\":"))
        let deepL = try await live.post("/v2/translate", #"{"text": ["a"], "target_lang": "ES"}"#, contentType: "application/json",
                                        headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
        #expect(deepL.status == 503 && deepL.text.hasPrefix("{\"message\":"))
        let usage = try await live.get("/v2/usage", headers: ["Authorization": "DeepL-Auth-Key \(secret)"])
        #expect(usage.status == 503)
        #expect(try await live.get("/translate?langpair=en|es&q=hello").status == 200)
        #expect(log.lines.withLock { $0.contains { $0.contains("unavailable") } })
        try await postgres.start()
        var status = 0
        let restarted = ContinuousClock.now
        while status != 200 && ContinuousClock.now - restarted < .seconds(20) {
            status = try await live.get("/language/translate/v2?q=c&target=es&key=\(secret)").status
            if status != 200 { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(status == 200)
        #expect(log.lines.withLock { $0.contains { $0.contains("available again") } })
        #expect(!log.lines.withLock { $0.joined() }.contains(secret))
    }
}
