import Foundation
import HTTPTestSupport
import Testing

@Suite("AJAX Language API v1 and Apertium APy over HTTP")
struct AjaxAPyTests {
    @Test("AJAX translate: envelope, detection on an empty source, html escaping, JSONP, several q")
    func ajaxTranslate() async throws {
        let live = try await LiveServer.start()
        let path = "/ajax/services/language/translate"
        let one = try await live.get("\(path)?v=1.0&q=It%27s&langpair=en%7Ces")
        #expect(one.status == 200)
        #expect(one.text == #"{"responseData":{"translatedText":"es:It&#39;s"},"responseDetails":null,"responseStatus":200}"#)
        let detected = try await live.get("\(path)?v=1.0&q=hello&langpair=%7Ces&format=text")
        #expect(detected.text == #"{"responseData":{"translatedText":"es:hello","detectedSourceLanguage":"en"},"responseDetails":null,"responseStatus":200}"#)
        let jsonp = try await live.get("\(path)?v=1.0&q=hi&langpair=en|es&callback=done")
        #expect(jsonp.header("content-type") == "text/javascript; charset=utf-8")
        #expect(jsonp.text == #"done({"responseData":{"translatedText":"es:hi"},"responseDetails":null,"responseStatus":200})"#)
        let several = try await live.get("\(path)?v=1.0&q=a&q=b&langpair=en|es&langpair=en|de")
        #expect(several.text == (#"{"responseData":[{"responseData":{"translatedText":"es:a"},"responseDetails":null,"responseStatus":200},{"responseData":null,"responseDetails":"No installed pair translates into German (de). Target languages available: en, es, fr.","responseStatus":400}],"responseDetails":null,"responseStatus":200}"#))
        await live.stop()
    }

    @Test("AJAX errors: HTTP 200 with the real status in responseStatus")
    func ajaxErrors() async throws {
        let live = try await LiveServer.start()
        let path = "/ajax/services/language/translate"
        let badPair = try await live.get("\(path)?v=1.0&q=a&langpair=en%7Cde")
        #expect(badPair.status == 200)
        let json = try #require(badPair.json as? [String: Any])
        #expect(json["responseStatus"] as? Int == 400)
        #expect(json["responseData"] is NSNull)
        #expect((json["responseDetails"] as? String)?.hasPrefix("No installed pair translates into German (de).") == true)
        let missing = try await live.get("\(path)?v=1.0&langpair=en|es")
        #expect(missing.text == #"{"responseData":null,"responseDetails":"Missing required field q.","responseStatus":400}"#)
        let version = try await live.get("\(path)?v=2.0&q=a&langpair=en|es")
        #expect((version.json as? [String: Any])?["responseStatus"] as? Int == 400)
        let badCallback = try await live.get("\(path)?q=a&langpair=en|es&callback=alert(1)")
        #expect((badCallback.json as? [String: Any])?["responseStatus"] as? Int == 400)
        await live.stop()
    }

    @Test("AJAX detect")
    func ajaxDetect() async throws {
        let live = try await LiveServer.start()
        let r = try await live.get("/ajax/services/language/detect?v=1.0&q=hola")
        #expect(r.text == #"{"responseData":{"language":"es","isReliable":true,"confidence":0.75},"responseDetails":null,"responseStatus":200}"#)
        await live.stop()
    }

    @Test("APy translate: 3- and 2-letter codes, form POST, </ escaped, markUnknown, JSONP")
    func apyTranslate() async throws {
        let live = try await LiveServer.start()
        let r = try await live.get("/translate?langpair=eng|spa&q=%3Cb%3Ehi%3C/b%3E")
        #expect(r.header("content-type") == "application/json; charset=UTF-8")
        #expect(r.text == #"{"responseData":{"translatedText":"es:<b>hi<\/b>"},"responseDetails":null,"responseStatus":200}"#)
        let form = try await live.post("/translate", "langpair=en%7Ces&q=d%C3%ADa&callback=f", contentType: "application/x-www-form-urlencoded")
        #expect(form.text == #"f({"responseData":{"translatedText":"es:día"},"responseDetails":null,"responseStatus":200})"#)
        let detect = try await live.get("/translate?langpair=%7Cspa&q=hello")
        #expect(detect.text == #"{"responseData":{"translatedText":"es:hello","detectedSourceLanguage":"eng"},"responseDetails":null,"responseStatus":200}"#)
        let jsonp = try await live.get("/translate?langpair=eng|spa&q=x&callback=cb")
        #expect(jsonp.header("content-type") == "application/javascript; charset=UTF-8")
        #expect(jsonp.text == #"cb({"responseData":{"translatedText":"es:x"},"responseDetails":null,"responseStatus":200})"#)
        let empty = try await live.get("/translate?langpair=eng|spa&q=")
        #expect(empty.text == #"{"responseData":{"translatedText":""},"responseDetails":null,"responseStatus":200}"#)
        await live.stop()
    }

    @Test("APy errors: real HTTP status and APy's error object")
    func apyErrors() async throws {
        let live = try await LiveServer.start()
        let missing = try await live.get("/translate?langpair=eng|spa")
        #expect(missing.status == 400)
        #expect(missing.text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"Missing argument q"}"#)
        let invalid = try await live.get("/translate?langpair=engspa&q=a")
        #expect(invalid.status == 400)
        #expect((invalid.json as? [String: Any])?["explanation"] as? String == "That pair is invalid, use e.g. eng|spa")
        let notInstalled = try await live.get("/translate?langpair=eng|deu&q=a")
        #expect(notInstalled.status == 400)
        #expect((notInstalled.json as? [String: Any])?["explanation"] as? String == "That pair is not installed")
        let twice = try await live.get("/translate?langpair=eng|spa&q=a&q=b")
        #expect(twice.status == 400)
        let json = try await live.post("/translate", #"{"langpair": "eng|spa", "q": "a"}"#, contentType: "application/json")
        #expect(json.status == 400)
        let noQ = try await live.get("/identifyLang")
        #expect(noQ.status == 400)
        await live.stop()
    }

    @Test("APy listPairs and identifyLang")
    func apyLists() async throws {
        let live = try await LiveServer.start()
        let pairs = try await live.get("/listPairs")
        // Without src, as APy: the pairs an engine translates directly (es→fr only pivots).
        #expect(pairs.text == #"{"responseData":[{"sourceLanguage":"eng","targetLanguage":"spa"},{"sourceLanguage":"spa","targetLanguage":"eng"},{"sourceLanguage":"eng","targetLanguage":"fra"}],"responseDetails":null,"responseStatus":200}"#)
        // With src, as APy: every language reachable from it, the pivot too (which /translate serves).
        let fromSpa = try await live.get("/listPairs?src=spa")
        #expect(fromSpa.text == #"{"responseData":[{"sourceLanguage":"spa","targetLanguage":"eng"},{"sourceLanguage":"spa","targetLanguage":"fra"}],"responseDetails":null,"responseStatus":200}"#)
        let identify = try await live.get("/identifyLang?q=hello")
        #expect(identify.text == #"{"eng":0.9,"fra":0.05}"#)
        await live.stop()
    }
}
