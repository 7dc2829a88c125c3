import Foundation
import HTTPTestSupport
import ServerAPI
import Testing
import Zip

/// Every APy endpoint over the fake service and fake analysis modes: APy's shapes, statuses and
/// messages (the real peer comparison is tests/test_apy_differential.py).
@Suite("Apertium APy endpoints")
struct APyEndpointTests {
    static func live(allowFetch: Set<String> = [], maxDocument: Int? = nil) async throws -> LiveServer {
        var api = ServerAPIConfiguration()
        api.languageModes = FakeModes()
        api.pipelines = FakeModes()
        api.allowedFetchHosts = allowFetch
        if let maxDocument { api.documentLimits.maxBytes = maxDocument }
        return try await LiveServer.start(api: api)
    }

    static func multipart(_ fields: [String: String], file: (String, [UInt8])?) -> (String, [UInt8]) {
        var body: [UInt8] = []
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += Array("--b0undary\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let (name, bytes) = file {
            body += Array("--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8) + bytes + Array("\r\n".utf8)
        }
        body += Array("--b0undary--\r\n".utf8)
        return ("multipart/form-data; boundary=b0undary", body)
    }

    @Test("/list and /listPairs: pairs (direct without src, reachable with src), modes, and APy's 400")
    func lists() async throws {
        let live = try await Self.live()
        let pairs = try await live.get("/listPairs")
        #expect(pairs.text == #"{"responseData":[{"sourceLanguage":"eng","targetLanguage":"spa"},{"sourceLanguage":"spa","targetLanguage":"eng"},{"sourceLanguage":"eng","targetLanguage":"fra"}],"responseDetails":null,"responseStatus":200}"#)
        #expect(try await live.get("/list?q=pairs").text == pairs.text)
        let fromSpa = try await live.get("/listPairs?src=spa")
        #expect(fromSpa.text == #"{"responseData":[{"sourceLanguage":"spa","targetLanguage":"eng"},{"sourceLanguage":"spa","targetLanguage":"fra"}],"responseDetails":null,"responseStatus":200}"#)
        #expect(try await live.get("/list?q=analyzers").text == #"{"eng":"eng-morph","eng-spa":"eng-spa-morph"}"#)
        #expect(try await live.get("/list?q=analysers").text == #"{"eng":"eng-morph","eng-spa":"eng-spa-morph"}"#)
        #expect(try await live.get("/list?q=generators").text == #"{"spa":"spa-gener"}"#)
        #expect(try await live.get("/list?q=disambiguators").text == #"{"eng":"eng-tagger"}"#)
        let bad = try await live.get("/list?q=nonsense")
        #expect(bad.status == 400 && bad.text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"Expecting q argument to be one of analysers, generators, spellers, disambiguators, or pairs"}"#)
        await live.stop()
    }

    @Test("/analyze, /generate, /calcCoverage, /perWord: APy's shapes; the deformatter's dot dropped but by /perWord, as in APy")
    func morphology() async throws {
        let live = try await Self.live()
        #expect(try await live.get("/analyze?lang=en&q=the+houses").text == #"[["the/the<n>","the "],["houses/houses<n>","houses"]]"#)
        #expect(try await live.get("/analyse?lang=eng&q=the+houses.").text == #"[["the/the<n>","the "],["houses./houses.<n>","houses."],["./.<sent>","."]]"#)
        let missing = try await live.get("/analyze?lang=xxx&q=a")
        #expect(missing.status == 400 && missing.text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"That mode is not installed"}"#)
        #expect(try await live.get("/analyze?lang=eng").text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"Missing argument q"}"#)
        #expect(try await live.get("/generate?lang=spa&q=%5Ecasa%3Cn%3E%24%5Eser%3Cv%3E%24").text == #"[["casa","^casa<n>$"],["ser","^ser<v>$"]]"#)
        #expect(try await live.get("/generate?lang=spa&q=gato%3Cn%3E").text == #"[["gato","^gato<n>$"]]"#)
        #expect(try await live.get("/calcCoverage?lang=eng&q=a+zorblax+b+c").text == "[0.75]")
        #expect(try await live.get("/calcCoverage?lang=eng&q=").text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"Missing q argument"}"#)
        #expect(try await live.get("/perWord?lang=eng&modes=morph+tagger&q=the+cat").text
            == #"[{"input":"the","morph":["the<n>"],"tagger":"the<n>"},{"input":"cat","morph":["cat<n>"],"tagger":"cat<n>"},{"input":".","morph":[".<sent>"],"tagger":".<sent>"}]"#)
        #expect(try await live.get("/perWord?lang=eng-spa&modes=biltrans&q=cat").text == #"[{"input":"cat","biltrans":["CAT<n>"]},{"input":".","biltrans":[".<sent>"]}]"#)
        #expect(try await live.get("/perWord?lang=eng&modes=morph&pos=2&q=the+cat").text == #"{"input":"cat","morph":["cat<n>"]}"#)
        #expect(try await live.get("/perWord?lang=eng&modes=morph+x&q=a").text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"Invalid mode argument"}"#)
        #expect(try await live.get("/perWord?lang=spa&modes=morph&q=a").text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"No output"}"#)
        await live.stop()
    }

    @Test("/translate and /translateChain: APy's messages, chains and paths")
    func translateAndChain() async throws {
        let live = try await Self.live()
        for (target, explanation) in [("/translate?q=a", "Missing argument langpair"), ("/translate?langpair=eng|spa", "Missing argument q"),
                                      ("/translate?langpair=eng-spa&q=a", "That pair is invalid, use e.g. eng|spa"),
                                      ("/translate?langpair=eng|spa|cat&q=a", "That pair is invalid, use e.g. eng|spa"),
                                      ("/translate?langpair=eng|deu&q=a", "That pair is not installed"),
                                      ("/translate?langpair=xx1|yy&q=a", "That pair is not installed"),
                                      ("/translateChain?langpairs=eng&q=a", "Need at least two languages, use e.g. eng|spa"),
                                      ("/translateChain?langpairs=eng|en&q=a", "Need at least two languages, use e.g. eng|spa"),
                                      ("/translateChain?langpairs=eng|deu&q=a", "No path found for eng-deu"),
                                      ("/translateChain?langpairs=spa|eng|deu&q=a", "Pair eng-deu is not installed")] {
            let r = try await live.get(target)
            #expect(r.status == 400 && r.text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"\#(explanation)"}"#, "\(target)")
        }
        #expect(try await live.get("/translateChain?langpairs=spa|eng|fra&q=hola").text == #"{"responseData":{"translatedText":"fr:en:hola","translationChain":["spa","eng","fra"]},"responseDetails":null,"responseStatus":200}"#)
        #expect(try await live.get("/translateChain?langpairs=spa|fra").text == #"{"responseData":{"translationChain":["spa","eng","fra"]},"responseDetails":null,"responseStatus":200}"#)
        await live.stop()
    }

    @Test("/translateRaw: the pipeline's stream as the body, labelled JSON, no JSONP; APy's errors and markUnknown as written")
    func translateRaw() async throws {
        let live = try await Self.live()
        let r = try await live.get("/translateRaw?langpair=eng|spa&q=%3Cb%3Ehi%3C/b%3E&callback=f")
        #expect(r.status == 200 && r.header("content-type") == "application/json; charset=UTF-8")
        #expect(r.text == "spa:*<b>hi</b>.[]")
        #expect(try await live.get("/translateRaw?langpair=en|es&q=a&deformat=False&markUnknown=no").text == "spa:a")
        // Only `False` turns the deformatter off, and only `yes`, `true` and `1` as written mark.
        #expect(try await live.get("/translateRaw?langpair=eng|spa&q=a&deformat=false&markUnknown=True").text == "spa:a.[]")
        #expect(try await live.get("/translateRaw?langpair=eng|spa&q=a&markUnknown=1").text == "spa:*a.[]")
        for (target, explanation) in [("/translateRaw?q=a", "Missing argument langpair"), ("/translateRaw?langpair=eng|spa", "Missing argument q"),
                                      ("/translateRaw?langpair=eng-spa&q=a", "That pair is invalid, use e.g. eng|spa"),
                                      ("/translateRaw?langpair=|spa&q=a", "That pair is not installed"),
                                      ("/translateRaw?langpair=eng|deu&q=a", "That pair is not installed"),
                                      // A pair the pipelines' engine does not have (another one serves it).
                                      ("/translateRaw?langpair=spa|eng&q=a", "That pair is not installed"),
                                      ("/translateRaw?langpair=eng|spa&q=a&q=b", "Invalid value '2 values' for q. Accepted: one q per /translateRaw request.")] {
            let e = try await live.get(target)
            #expect(e.status == 400 && e.text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"\#(explanation)"}"#, "\(target)")
        }
        await live.stop()
    }

    @Test("/translateDoc: documents in and out, APy's 413 and 'Invalid file type'")
    func translateDoc() async throws {
        let live = try await Self.live(maxDocument: 2048)
        let (type, body) = Self.multipart(["langpair": "eng|spa"], file: ("a.txt", Array("Hello\n\nWorld\n".utf8)))
        let r = try #require(await live.client().request("POST", "/translateDoc", headers: ["Content-Type": type], body: body))
        #expect(r.status == 200 && r.text == "es:Hello\n\nes:World\n")
        #expect(r.header("content-type") == "text/plain" && r.header("content-disposition") == "attachment")
        let docx = ZipWriter.archive([("word/document.xml", Array(#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>"#.utf8))])
        let (t2, b2) = Self.multipart(["langpair": "eng|spa", "markUnknown": "no"], file: ("a.docx", docx))
        let out = try #require(await live.client().request("POST", "/translateDoc", headers: ["Content-Type": t2], body: b2))
        #expect(out.status == 200 && out.header("content-type") == "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        let zip = try ZipArchive(bytes: out.body)
        #expect(String(decoding: try zip.contents(of: zip.entries[0]), as: UTF8.self).contains("<w:t>es:Hi</w:t>"))
        let (t3, b3) = Self.multipart(["langpair": "eng|spa"], file: ("a.pdf", Array("%PDF-1.4 x".utf8)))
        let pdf = try #require(await live.client().request("POST", "/translateDoc", headers: ["Content-Type": t3], body: b3))
        #expect(pdf.status == 400 && pdf.text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"Invalid file type application/pdf"}"#)
        let (t4, b4) = Self.multipart(["langpair": "eng|spa"], file: ("big.txt", Array(repeating: 0x61, count: 3000)))
        let big = try #require(await live.client().request("POST", "/translateDoc", headers: ["Content-Type": t4], body: b4))
        #expect(big.status == 413 && big.text == #"{"status":"error","code":413,"message":"Request Entity Too Large","explanation":"That file is too large"}"#)
        let (t5, b5) = Self.multipart(["langpair": "eng|deu"], file: ("a.txt", Array("x".utf8)))
        let pair = try #require(await live.client().request("POST", "/translateDoc", headers: ["Content-Type": t5], body: b5))
        #expect(pair.status == 400 && pair.text.contains("That pair is not installed"))
        let (t6, b6) = Self.multipart(["langpair": "eng|spa"], file: nil)
        let none = try #require(await live.client().request("POST", "/translateDoc", headers: ["Content-Type": t6], body: b6))
        #expect(none.status == 400 && none.text.contains("Missing argument file"))
        // The document limit raises this path's body limit above the server's (4096 here), and only this path's.
        let (t7, b7) = Self.multipart(["langpair": "eng|spa", "q": String(repeating: "x", count: 5000)], file: nil)
        let other = try #require(await live.client().request("POST", "/translate", headers: ["Content-Type": t7], body: b7))
        #expect(other.status == 413)
        await live.stop()
    }

    @Test("/translatePage: refused at once unless the host is allowed; fetch failures are APy's 404")
    func translatePage() async throws {
        let closed = try await Self.live()
        let refused = try await closed.get("/translatePage?langpair=eng|spa&url=http://169.254.169.254/latest/meta-data/")
        #expect(refused.status == 403)
        #expect(refused.text == #"{"status":"error","code":403,"message":"Forbidden","explanation":"Fetching pages from 169.254.169.254 is not allowed on this server (glossa serve --allow-fetch 169.254.169.254 allows it)."}"#)
        let noURL = try await closed.get("/translatePage?langpair=eng|spa")
        #expect(noURL.text.contains("Missing argument url"))
        await closed.stop()
        let open = try await Self.live(allowFetch: ["127.0.0.1"])
        // Nothing listens on port 9 (discard) of loopback: the fetch fails and APy's 404 comes back.
        let failed = try await open.get("/translatePage?langpair=eng|spa&url=127.0.0.1:9/x")
        #expect(failed.status == 404 && failed.text.contains("Error 404 on fetching url"))
        await open.stop()
    }

    @Test("/getLocale, /listLanguageNames, /stats, /pipedebug")
    func information() async throws {
        let live = try await Self.live()
        #expect(try await live.get("/getLocale", headers: ["Accept-Language": "nb-NO,en;q=0.8"]).text == #"["nb-NO","en"]"#)
        #expect(try await live.get("/getLocale").text == #"{"status":"error","code":400,"message":"Bad Request","explanation":"Accept-Language missing from request headers"}"#)
        #expect(try await live.get("/listLanguageNames?locale=es&languages=eng+spa").text == #"{"eng":"inglés","spa":"español"}"#)
        #expect(try await live.get("/listLanguageNames?locale=xx&languages=eng").text == "{}")
        let names = try #require(await live.get("/listLanguageNames", headers: ["Accept-Language": "xx, ca;q=0.9"]).json as? [String: String])
        #expect(names["en"] == "anglès" && names["es"] == "espanyol")
        // Without `languages`, every language ICU names, as APy lists its whole database (its own
        // test_english_lang_names_list wants more than 50), served or not.
        let all = try #require(await live.get("/listLanguageNames?locale=eng").json as? [String: String])
        #expect(all.count > 400 && all["en"] == "English" && all["se"] == "North Sámi" && all["an"] == "Aragonese")
        _ = try await live.get("/translate?langpair=eng|spa&q=hello")
        let stats = try #require(await live.get("/stats").json as? [String: Any])
        let data = try #require(stats["responseData"] as? [String: Any])
        #expect(data["useCount"] as? [String: Int] == ["eng-spa": 1])
        #expect(data["runningPipes"] as? [String: Int] == ["eng-spa": 1])
        #expect((data["periodStats"] as? [String: Any])?["totChars"] as? Int == 5)
        let debug = try await live.get("/pipedebug?langpair=eng|spa&q=hi")
        #expect(debug.text == #"{"responseData":{"output":["hi","hi.[]","^hi/hi<n>$","hi"],"pipeline":["apertium-deshtml",["lt-proc","x.bin"],"apertium-rehtml-noent"]},"responseDetails":null,"responseStatus":200}"#)
        await live.stop()
    }
}
