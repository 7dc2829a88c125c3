import HTTPTestSupport
import ServerAPI
import Testing

private let form = "application/x-www-form-urlencoded"
private let json = "application/json"

/// LibreTranslate 1.9 over HTTP, byte for byte: Flask's `jsonify` (sorted keys, `90.0`, a final
/// newline), LibreTranslate's messages and statuses, every encoding its clients send.
@Suite("LibreTranslate over HTTP")
struct LibreTranslateTests {
    @Test("translate: form (libretranslatepy), query only (deep-translator), JSON; exact bytes")
    func translateEncodings() async throws {
        let live = try await LiveServer.start()
        let expected = "{\"translatedText\":\"es:Hello world\"}\n"
        let byForm = try await live.post("/translate", "q=Hello+world&source=en&target=es", contentType: form)
        #expect(byForm.status == 200)
        #expect(byForm.header("content-type") == "application/json")
        #expect(byForm.text == expected)
        let byQuery = try await live.post("/translate?q=Hello%20world&source=en&target=es&format=text", "", contentType: form)
        #expect(byQuery.text == expected)
        let byJSON = try await live.post("/translate", #"{"q": "Hello world", "source": "en", "target": "es", "format": "text", "api_key": ""}"#, contentType: json)
        #expect(byJSON.text == expected)
        await live.stop()
    }

    @Test("translate a JSON batch; auto detects each text on its own; alternatives are empty lists")
    func batchAndDetection() async throws {
        let live = try await LiveServer.start()
        let batch = try await live.post("/translate", #"{"q": ["hello", "hola amigo", ""], "source": "auto", "target": "fr", "alternatives": 2}"#, contentType: json)
        #expect(batch.status == 200)
        // Each text its own detection (LibreTranslate repeats one for the batch, #779); Spanish goes
        // through the English pivot (the fake engine prefixes each step); the empty one echoes.
        #expect(batch.text == #"{"alternatives":[[],[],[]],"detectedLanguage":[{"confidence":90.0,"language":"en"},{"confidence":75.0,"language":"es"},{"confidence":0.0,"language":"en"}],"translatedText":["fr:hello","fr:en:hola amigo",""]}"# + "\n")
        let single = try await live.post("/translate", "q=hello&source=auto&target=es", contentType: form)
        #expect(single.text == #"{"detectedLanguage":{"confidence":90.0,"language":"en"},"translatedText":"es:hello"}"# + "\n")
        let html = try await live.post("/translate", #"{"q": "<b>hi</b>", "source": "en", "target": "es", "format": "html"}"#, contentType: json)
        #expect(html.text == "{\"translatedText\":\"es:<b>hi</b>\"}\n")
        await live.stop()
    }

    @Test("translate errors: LibreTranslate's exact messages and statuses")
    func translateErrors() async throws {
        let live = try await LiveServer.start()
        func check(_ body: String, type: String = form, _ status: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let r = try await live.post("/translate", body, contentType: type)
            #expect(r.status == status, sourceLocation: sourceLocation)
            #expect(r.text == "{\"error\":\"\(message)\"}\n", sourceLocation: sourceLocation)
        }
        try await check("source=en&target=es", 400, "Invalid request: missing q parameter")
        try await check("q=&source=en&target=es", 400, "Invalid request: missing q parameter")
        try await check(#"{"q": [], "source": "en", "target": "es"}"#, type: json, 400, "Invalid request: missing q parameter")
        try await check("q=a&target=es", 400, "Invalid request: missing source parameter")
        try await check("q=a&source=en", 400, "Invalid request: missing target parameter")
        try await check("q=a&source=en&target=zz", 400, "zz is not supported")
        try await check("q=a&source=XX&target=es", 400, "xx is not supported")
        try await check("q=a&source=en&target=de", 400, "de is not supported")
        try await check("q=a&source=fr&target=es", 400, "fr is not supported")
        try await check("q=a&source=en&target=es&format=rtf", 400, "rtf format is not supported")
        try await check("q=a&source=en&target=es&alternatives=many", 400, "Invalid request: alternatives parameter is not a number")
        try await check(#"{"q": "a", "source": "#, type: json, 400, "Failed to decode JSON object: the body is not well-formed UTF-8 JSON")
        try await check(#"["a"]"#, type: json, 400, "Invalid JSON format")
        // Flask would keep the first q; Glossa refuses rather than drop the second.
        let twice = try await live.post("/translate", "q=a&q=b&source=en&target=es", contentType: form)
        #expect(twice.status == 400 && twice.text.contains("Invalid value '2 values' for q"))
        await live.stop()
    }

    @Test("/translate is shared with APy: langpair (or GET) is APy's, the rest LibreTranslate's")
    func sharedPath() async throws {
        let live = try await LiveServer.start()
        let apy = try await live.post("/translate", "langpair=en|es&q=hi", contentType: form)
        #expect(apy.text == #"{"responseData":{"translatedText":"es:hi"},"responseDetails":null,"responseStatus":200}"#)
        let apyGet = try await live.get("/translate?q=hi&source=en&target=es")
        #expect(apyGet.status == 400 && apyGet.text.contains(#""explanation":"Missing argument langpair""#))
        let lt = try await live.post("/translate", "q=hi&source=en&target=es", contentType: form)
        #expect(lt.text == "{\"translatedText\":\"es:hi\"}\n")
        let empty = try await live.post("/translate", "", contentType: form)
        #expect(empty.text == "{\"error\":\"Invalid request: missing q parameter\"}\n")
        await live.stop()
    }

    @Test("detect: candidates among the languages it lists, 0–100; a JSON list gets one list per text")
    func detect() async throws {
        let live = try await LiveServer.start()
        let one = try await live.post("/detect", "q=hello", contentType: form)
        #expect(one.status == 200)
        // French is only a target here, and still offered: LibreTranslate's detector answers any
        // installed language (libretranslate/language.py: load_lang_codes() is every language of
        // argostranslate's get_installed_languages(), a target-only one included), as /languages lists them.
        #expect(one.text == "[{\"confidence\":90.0,\"language\":\"en\"},{\"confidence\":5.0,\"language\":\"fr\"}]\n")
        let batch = try await live.post("/detect", #"{"q": ["hola", "bonjour", "hello"]}"#, contentType: json)
        #expect(batch.text == #"[[{"confidence":75.0,"language":"es"}],[{"confidence":50.0,"language":"fr"}],[{"confidence":90.0,"language":"en"},{"confidence":5.0,"language":"fr"}]]"# + "\n")
        let missing = try await live.post("/detect", "", contentType: form)
        #expect(missing.status == 400 && missing.text == "{\"error\":\"Invalid request: missing q parameter\"}\n")
        await live.stop()
    }

    @Test("languages, frontend settings, spec; wrong methods 405 in LibreTranslate's envelope")
    func otherEndpoints() async throws {
        let live = try await LiveServer.start()
        let languages = try await live.get("/languages")
        #expect(languages.text == #"[{"code":"en","name":"English","targets":["es","fr"]},{"code":"es","name":"Spanish","targets":["en","fr"]},{"code":"fr","name":"French","targets":[]}]"# + "\n")
        // libretranslatepy sends a form body on this GET; it is read and ignored.
        let withBody = try await live.send("GET", "/languages", "api_key=k", contentType: form)
        #expect(withBody.text == languages.text)
        let localized = try await live.get("/languages", headers: ["Accept-Language": "es-ES,es;q=0.9"])
        #expect(localized.text.hasPrefix(#"[{"code":"en","name":"inglés","#))
        let settings = try await live.get("/frontend/settings")
        #expect(settings.text == #"{"apiKeys":false,"charLimit":-1,"filesTranslation":true,"frontendTimeout":500,"keyRequired":false,"language":{"source":{"code":"auto","name":"Auto Detect"},"target":{"code":"en","name":"English"}},"suggestions":false,"supportedFilesFormat":[".txt",".html",".rtf",".docx",".pptx",".xlsx",".odt",".odp",".ods"]}"# + "\n")
        let spec = try #require(try await live.get("/spec").json as? [String: Any])
        #expect(spec["swagger"] as? String == "2.0")
        let specPaths = try #require(spec["paths"] as? [String: [String: Any]])
        #expect(Set(specPaths.keys) == ["/translate", "/detect", "/languages", "/frontend/settings", "/spec", "/translate_file", "/download_file/{filename}", "/suggest"])
        let parameters = try #require((specPaths["/translate"]?["post"] as? [String: Any])?["parameters"] as? [[String: Any]])
        #expect(parameters.first?["in"] as? String == "formData" && parameters.first?["name"] as? String == "q")
        for (method, path) in [("GET", "/detect"), ("POST", "/languages"), ("POST", "/spec"), ("POST", "/frontend/settings"), ("PUT", "/translate")] {
            let r = try await live.send(method, path, "", contentType: form)
            #expect(r.status == 405, "\(method) \(path)")
            #expect(r.text == "{\"error\":\"The method is not allowed for the requested URL.\"}\n" || path == "/translate", "\(method) \(path)")
        }
        await live.stop()
    }

    @Test("translate_file keeps the file for download_file; LibreTranslate's errors; suggestions are off")
    func filesAndSuggestions() async throws {
        var api = ServerAPIConfiguration()
        api.documentLimits.maxBytes = 100_000
        let live = try await LiveServer.start(api: api)
        func upload(_ fields: [(String, String)], file: (String, String)?) async throws -> RawResponse {
            var body = fields.map { "--x\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined()
            if let (name, text) = file { body += "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\n\r\n\(text)\r\n" }
            return try await live.post("/translate_file", body + "--x--\r\n", contentType: "multipart/form-data; boundary=x")
        }
        let ok = try await upload([("source", "en"), ("target", "es")], file: ("notes.txt", "hello\n\nworld"))
        let url = try #require((ok.json as? [String: String])?["translatedFileUrl"])
        // The URL is built from the request's Host, as Flask's url_for(_external=True) builds it.
        let path = try #require(url.firstRange(of: "/download_file/").map { String(url[$0.lowerBound...]) })
        #expect(ok.status == 200 && url.hasPrefix("http://") && url.hasSuffix(".notes.txt"), "\(url)")
        let download = try await live.get(path)
        #expect(download.status == 200 && download.text == "es:hello\n\nes:world")
        #expect(download.header("content-disposition") == "attachment; filename=\"notes.txt\"")
        for (fields, file, error) in [([("target", "es")], ("a.txt", "x"), "Invalid request: missing source parameter"),
                                      ([("source", "en"), ("target", "es")], nil, "Invalid request: missing file parameter"),
                                      ([("source", "en"), ("target", "es")], ("a.pdf", "x"), "Invalid request: file format not supported"),
                                      ([("source", "en"), ("target", "de")], ("a.txt", "x"), "de is not supported")] as [([(String, String)], (String, String)?, String)] {
            let r = try await upload(fields, file: file)
            #expect(r.status == 400 && r.text == "{\"error\":\"\(error)\"}\n", "\(error)")
        }
        let missing = try await live.get("/download_file/nothing.txt")
        #expect(missing.status == 400 && missing.text == "{\"error\":\"Invalid filename\"}\n")
        let suggest = try await live.post("/suggest", "q=a&s=b&source=en&target=es", contentType: form)
        #expect(suggest.status == 403 && suggest.text == "{\"error\":\"Suggestions are disabled on this server.\"}\n")
        await live.stop()
    }
}
