import HTTPTestSupport
import ServerAPI
import Synchronization
import Testing

/// What a middleware saw of one request.
struct Seen: Sendable, Equatable {
    var endpoint: String
    var dialect: String
    var credential: Credential?
    var client: String?
}

/// Records every request it passes on; refuses, in the endpoint's envelope, those that ask it to
/// with `X-Test-Refuse: rate|quota|missing|invalid|forbidden|unavailable`.
final class Probe: Middleware {
    let seen = Mutex<[Seen]>([])

    func respond(to request: RoutedRequest, next: Responder) async -> EndpointResult {
        seen.withLock { $0.append(Seen(endpoint: request.endpointName, dialect: request.dialectName,
                                       credential: request.credential, client: request.http.clientAddress)) }
        switch request.http.headers["X-Test-Refuse"] {
        case "rate": return request.reject(.rateLimited(retryAfter: 7, message: "20 per 1 minute"))
        case "quota": return request.reject(.quotaExceeded())
        case "missing": return request.reject(.unauthorized(.missing))
        case "invalid": return request.reject(.unauthorized(.invalid))
        case "forbidden": return request.reject(.forbidden("This key may not call this endpoint."))
        case "unavailable": return request.reject(.unavailable(retryAfter: 2))
        default: return await next(request)
        }
    }

    var last: Seen? { seen.withLock { $0.last } }
}

@Suite("Middleware around every endpoint: route known, credential read, answers in the endpoint's envelope")
struct MiddlewareTests {
    @Test("Each dialect's credential reader finds its clients' key; the client address is known")
    func credentials() async throws {
        let probe = Probe()
        let live = try await LiveServer.start(middleware: [probe])
        _ = try await live.get("/language/translate/v2?q=a&target=es&key=G1")
        #expect(probe.last == Seen(endpoint: "google_v2_translate", dialect: "google_v2",
                                   credential: Credential(key: "G1", location: .parameter("key")), client: "127.0.0.1"))
        _ = try await live.get("/language/translate/v2/languages", headers: ["X-Goog-Api-Key": "G2"])
        #expect(probe.last?.credential == Credential(key: "G2", location: .header("X-Goog-Api-Key")))
        _ = try await live.post("/translate", #"{"q": "a", "source": "en", "target": "es", "api_key": "L1"}"#, contentType: "application/json")
        #expect(probe.last?.endpoint == "libretranslate_translate")
        #expect(probe.last?.credential == Credential(key: "L1", location: .parameter("api_key")))
        _ = try await live.post("/detect", "q=a&api_key=L2", contentType: "application/x-www-form-urlencoded")
        #expect(probe.last?.credential == Credential(key: "L2", location: .parameter("api_key")))
        _ = try await live.post("/v2/translate", #"{"text": ["a"], "target_lang": "ES"}"#, contentType: "application/json",
                                headers: ["Authorization": "DeepL-Auth-Key D1:fx"])
        #expect(probe.last == Seen(endpoint: "deepl_translate", dialect: "deepl",
                                   credential: Credential(key: "D1:fx", location: .header("Authorization")), client: "127.0.0.1"))
        _ = try await live.get("/v2/usage", headers: ["Authorization": "Bearer nope"])
        #expect(probe.last?.credential == nil)
        _ = try await live.get("/translate?langpair=en|es&q=a")
        #expect(probe.last?.endpoint == "apy_translate" && probe.last?.dialect == "apy")
        // No route, no middleware beyond the built-in ones: nothing to check a key against.
        let count = probe.seen.withLock { $0.count }
        _ = try await live.get("/nowhere")
        #expect(probe.seen.withLock { $0.count } == count)
        await live.stop()
    }

    @Test("A refusal comes in the endpoint's own envelope and status, with Retry-After")
    func refusals() async throws {
        let live = try await LiveServer.start(middleware: [Probe()])
        func refuse(_ kind: String, _ method: String, _ target: String, _ body: String = "", type: String = "application/x-www-form-urlencoded") async throws -> RawResponse {
            try await live.send(method, target, body, contentType: type, headers: ["X-Test-Refuse": kind])
        }
        let google = try await refuse("rate", "GET", "/language/translate/v2?q=a&target=es&prettyPrint=false")
        #expect(google.status == 403 && google.header("retry-after") == "7")
        #expect(google.text == #"{"error":{"code":403,"message":"User Rate Limit Exceeded","errors":[{"message":"User Rate Limit Exceeded","domain":"usageLimits","reason":"userRateLimitExceeded"}],"status":"PERMISSION_DENIED"}}"#)
        let googleKey = try await refuse("invalid", "GET", "/language/translate/v2?q=a&target=es&prettyPrint=false")
        #expect(googleKey.status == 400 && googleKey.text.contains(#""message":"API key not valid. Please pass a valid API key.""#))
        let lt = try await refuse("rate", "POST", "/translate", "q=a&source=en&target=es")
        #expect(lt.status == 429 && lt.text == "{\"error\":\"Slowdown: 20 per 1 minute\"}\n" && lt.header("retry-after") == "7")
        let ltMissing = try await refuse("missing", "POST", "/translate", "q=a&source=en&target=es")
        #expect(ltMissing.status == 400 && ltMissing.text == "{\"error\":\"Please contact the server operator to get an API key\"}\n")
        let ltInvalid = try await refuse("invalid", "POST", "/detect", "q=a")
        #expect(ltInvalid.status == 403 && ltInvalid.text == "{\"error\":\"Invalid API key\"}\n")
        let deepL = try await refuse("quota", "POST", "/v2/translate", #"{"text": ["a"], "target_lang": "ES"}"#, type: "application/json")
        #expect(deepL.status == 456 && deepL.text == #"{"message":"Quota for this billing period has been exceeded."}"#)
        let deepLKey = try await refuse("invalid", "GET", "/v2/usage")
        #expect(deepLKey.status == 403 && deepLKey.text.hasPrefix(#"{"message":"Authorization failed."#))
        let apy = try await refuse("rate", "GET", "/translate?langpair=en|es&q=a")
        #expect(apy.status == 429 && apy.text == #"{"status":"error","code":429,"message":"Too Many Requests","explanation":"20 per 1 minute"}"#)
        let ajax = try await refuse("forbidden", "GET", "/ajax/services/language/translate?v=1.0&q=a&langpair=en|es")
        #expect(ajax.status == 200 && ajax.text == #"{"responseData":null,"responseDetails":"This key may not call this endpoint.","responseStatus":403}"#)
        let stream = try await refuse("unavailable", "POST", "/glossa/v1/translate/stream", #"{"q": ["a"], "target": "es"}"#, type: "application/json")
        #expect(stream.status == 503 && stream.header("retry-after") == "2")
        #expect(stream.text.contains(#""domain":"glossa","reason":"unavailable""#))
        await live.stop()
    }
}
