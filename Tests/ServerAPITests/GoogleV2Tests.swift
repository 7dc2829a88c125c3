import HTTPTestSupport
import Testing
import TranslationTesting
import TranslationCore

private let v2 = "/language/translate/v2"

@Suite("Google Cloud Translation v2 over HTTP")
struct GoogleV2Tests {
    @Test("POST JSON as google-cloud-translate sends it: nulls absent, detection, html escaping")
    func clientJSON() async throws {
        let live = try await LiveServer.start()
        let body = #"{"target": "es", "q": ["hello", "It's <b>a > b</b>"], "cid": [], "format": null, "source": null, "model": null}"#
        let r = try await live.post("\(v2)?prettyPrint=false", body, contentType: "application/json")
        #expect(r.status == 200)
        #expect(r.header("content-type") == "application/json; charset=UTF-8")
        #expect(r.text == #"{"data":{"translations":[{"translatedText":"es:hello","detectedSourceLanguage":"en"},{"translatedText":"es:It&#39;s <b>a &gt; b</b>","detectedSourceLanguage":"en"}]}}"#)
        await live.stop()
    }

    @Test("GET with repeated q, a source and format=text: no detection field, no escaping")
    func getRepeated() async throws {
        let live = try await LiveServer.start()
        let r = try await live.get("\(v2)?q=It%27s&q=two+words&target=es&source=en&format=text&prettyPrint=false&key=K")
        #expect(r.text == #"{"data":{"translations":[{"translatedText":"es:It's"},{"translatedText":"es:two words"}]}}"#)
        await live.stop()
    }

    @Test("POST form, POST with only a query string, q as a JSON string, {data:{...}} wrapping, model echo")
    func encodings() async throws {
        let live = try await LiveServer.start()
        let expected = #"{"data":{"translations":[{"translatedText":"es:hi"}]}}"#
        let form = try await live.post("\(v2)?prettyPrint=false", "q=hi&target=es&source=en&format=text", contentType: "application/x-www-form-urlencoded")
        #expect(form.text == expected)
        let queryOnly = try await live.post("\(v2)?q=hi&target=es&source=en&format=text&prettyPrint=false", "", contentType: "application/json")
        #expect(queryOnly.text == expected)
        let stringQ = try await live.post("\(v2)?prettyPrint=false", #"{"q": "hi", "target": "es", "source": "en", "format": "text"}"#, contentType: "application/json")
        #expect(stringQ.text == expected)
        let wrapped = try await live.post("\(v2)?key=K&alt=json&prettyPrint=false",
                                          #"{"data": {"q": ["hi"], "target": "es", "source": "en", "format": "text", "model": "base"}}"#,
                                          contentType: "application/json")
        #expect(wrapped.text == #"{"data":{"translations":[{"translatedText":"es:hi","model":"nmt"}]}}"#)
        let header = try await live.get("\(v2)?q=hi&target=es&source=en&format=text&prettyPrint=false", headers: ["X-Goog-Api-Key": "K"])
        #expect(header.text == expected)
        await live.stop()
    }

    @Test("Pretty-printed by default, as Google answers without prettyPrint=false")
    func prettyDefault() async throws {
        let live = try await LiveServer.start()
        let r = try await live.get("\(v2)?q=hi&target=es&source=en")
        #expect(r.text == "{\n  \"data\": {\n    \"translations\": [\n      {\n        \"translatedText\": \"es:hi\"\n      }\n    ]\n  }\n}")
        await live.stop()
    }

    @Test("detect answers a list of lists with exactly one entry per q, in order")
    func detect() async throws {
        let live = try await LiveServer.start()
        let r = try await live.post("\(v2)/detect?prettyPrint=false", #"{"q": ["hello", "hola amigo", "bonjour"]}"#, contentType: "application/json")
        #expect(r.text == #"{"data":{"detections":[[{"language":"en","isReliable":true,"confidence":0.9}],[{"language":"es","isReliable":true,"confidence":0.75}],[{"language":"fr","isReliable":false,"confidence":0.5}]]}}"#)
        await live.stop()
    }

    @Test("languages: codes sorted without target; localized names sorted by name with target")
    func languages() async throws {
        let live = try await LiveServer.start()
        let plain = try await live.get("\(v2)/languages?prettyPrint=false")
        #expect(plain.text == #"{"data":{"languages":[{"language":"en"},{"language":"es"},{"language":"fr"}]}}"#)
        let named = try await live.get("\(v2)/languages?target=es&prettyPrint=false")
        #expect(named.text == #"{"data":{"languages":[{"language":"es","name":"español"},{"language":"fr","name":"francés"},{"language":"en","name":"inglés"}]}}"#)
        await live.stop()
    }

    @Test("languages lists targets only, every engine variant under a name of its own")
    func languageVariants() async throws {
        let engine = prefixEngine(served: [try LanguagePair(parsing: "eng-cat"), try LanguagePair(parsing: "eng-cat_valencia"),
                                           try LanguagePair(parsing: "eng-cat_valencia_uni")])
        let live = try await LiveServer.start(engine: engine)
        let r = try await live.get("\(v2)/languages?target=en&prettyPrint=false")
        // English is only a source here: nothing translates into it, so it is not offered.
        #expect(r.text == #"{"data":{"languages":[{"language":"ca","name":"Catalan"},{"language":"ca-valencia","name":"Catalan (Valencian)"},{"language":"ca-valencia-x-uni","name":"Catalan (Valencian, uni)"}]}}"#)
        await live.stop()
    }

    @Test("Errors come in Google's envelope with Google's codes and reasons")
    func errors() async throws {
        let live = try await LiveServer.start(maxBody: 2048)
        func error(_ r: RawResponse) -> (Int, String, String, String) {
            let e = (r.json as? [String: Any])?["error"] as? [String: Any] ?? [:]
            let first = (e["errors"] as? [[String: Any]])?.first ?? [:]
            return (e["code"] as? Int ?? -1, first["reason"] as? String ?? "", e["status"] as? String ?? "", e["message"] as? String ?? "")
        }
        let missingQ = try await live.get("\(v2)?target=es&prettyPrint=false")
        #expect(missingQ.status == 400)
        #expect(missingQ.text == #"{"error":{"code":400,"message":"Missing required field q.","errors":[{"message":"Missing required field q.","domain":"global","reason":"required"}],"status":"INVALID_ARGUMENT"}}"#)
        #expect(error(try await live.get("\(v2)?q=a")).0 == 400)
        #expect(error(try await live.get("\(v2)?q=a")).3 == "Missing required field target.")
        let unknown = error(try await live.get("\(v2)?q=a&target=xx"))
        #expect(unknown.0 == 400 && unknown.1 == "invalid")
        #expect(unknown.3.contains("Invalid language code 'xx'"))
        let pair = error(try await live.get("\(v2)?q=a&target=de&source=en"))
        #expect(pair.0 == 400 && pair.1 == "badRequest" && pair.2 == "INVALID_ARGUMENT")
        let many = error(try await live.get("\(v2)?target=es&" + Array(repeating: "q=a", count: 129).joined(separator: "&")))
        #expect(many.0 == 400 && many.3.hasPrefix("Too many text segments"))
        let badJSON = error(try await live.post(v2, #"{"q": ["a", "#, contentType: "application/json"))
        #expect(badJSON.0 == 400 && badJSON.1 == "parseError")
        let badUTF8 = error(try await live.get("\(v2)?q=%FF&target=es"))
        #expect(badUTF8.0 == 400 && badUTF8.3.contains("Invalid UTF-8") && badUTF8.3.contains("'q'"))
        let tooBig = try await live.post(v2, "{\"q\": \"\(String(repeating: "a", count: 5000))\", \"target\": \"es\"}", contentType: "application/json")
        #expect(tooBig.status == 413)
        #expect(error(tooBig).3 == "Request payload size exceeds the limit: 2048 bytes.")
        let nonString = error(try await live.post(v2, #"{"q": [{"a": 1}], "target": "es"}"#, contentType: "application/json"))
        #expect(nonString.0 == 400 && nonString.1 == "parseError")
        // A path no dialect serves is a plain 404, not a guess at the protocol from its prefix.
        let missingRoute = try await live.get("/language/translate/v3")
        #expect(missingRoute.status == 404 && missingRoute.header("content-type") == "text/plain; charset=utf-8")
        #expect(missingRoute.text == "No endpoint at /language/translate/v3. Every endpoint is listed at /openapi.json.\n")
        let jsonp = try await live.get("\(v2)?q=hi&target=es&source=en&format=text&prettyPrint=false&callback=cb")
        #expect(jsonp.text == "// API callback\ncb({\"data\":{\"translations\":[{\"translatedText\":\"es:hi\"}]}});")
        let badCallback = try await live.get("\(v2)?q=hi&target=es&callback=alert(1)")
        #expect(badCallback.status == 400 && error(badCallback).3.contains("callback"))
        let method = try #require(await live.client().request("DELETE", v2))
        #expect(method.status == 405 && method.header("allow") == "GET, POST, OPTIONS")
        await live.stop()
    }
}
