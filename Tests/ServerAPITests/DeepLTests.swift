import HTTPTestSupport
import Testing

private let form = "application/x-www-form-urlencoded"
private let json = "application/json"
private let key = ["Authorization": "DeepL-Auth-Key test:fx"]

/// DeepL API v2 over HTTP, byte for byte: upper-case codes, `detected_source_language` always,
/// `billed_characters` when asked, DeepL's validation messages and statuses.
@Suite("DeepL API v2 over HTTP")
struct DeepLTests {
    @Test("translate: JSON as deepl-python sends it, and a form with repeated text")
    func translate() async throws {
        let live = try await LiveServer.start()
        let body = #"{"target_lang": "ES", "text": ["hello", "hola amigo"], "show_billed_characters": true}"#
        let r = try await live.post("/v2/translate", body, contentType: json, headers: key)
        #expect(r.status == 200)
        #expect(r.header("content-type") == "application/json")
        // Detected per text; text already in Spanish comes back as it is.
        #expect(r.text == #"{"translations":[{"detected_source_language":"EN","text":"es:hello","billed_characters":5},{"detected_source_language":"ES","text":"hola amigo","billed_characters":10}]}"#)
        let byForm = try await live.post("/v2/translate", "text=d%C3%ADa&text=two&source_lang=en&target_lang=fr&model_type=prefer_quality_optimized",
                                         contentType: form, headers: key)
        #expect(byForm.text == #"{"translations":[{"detected_source_language":"EN","text":"fr:día","model_type_used":"quality_optimized"},{"detected_source_language":"EN","text":"fr:two","model_type_used":"quality_optimized"}]}"#)
        let variant = try await live.post("/v2/translate", #"{"text": ["hola"], "source_lang": "ES", "target_lang": "en-gb", "tag_handling": "html", "formality": "prefer_less", "split_sentences": "nonewlines", "preserve_formatting": true}"#,
                                          contentType: json, headers: key)
        #expect(variant.text == #"{"translations":[{"detected_source_language":"ES","text":"en:hola"}]}"#)
        await live.stop()
    }

    @Test("translate errors: DeepL's messages, statuses 400 and 413")
    func translateErrors() async throws {
        let live = try await LiveServer.start()
        func check(_ body: String, _ status: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let r = try await live.post("/v2/translate", body, contentType: json, headers: key)
            #expect(r.status == status, sourceLocation: sourceLocation)
            #expect(r.text == "{\"message\":\"\(message)\"}", sourceLocation: sourceLocation)
        }
        try await check(#"{"target_lang": "ES"}"#, 400, "Parameter 'text' not specified.")
        try await check(#"{"text": ["a"]}"#, 400, "Parameter 'target_lang' not specified.")
        try await check(#"{"text": ["a"], "target_lang": "JA"}"#, 400, "Value for 'target_lang' not supported.")
        try await check(#"{"text": ["a"], "target_lang": "ES", "source_lang": "FR"}"#, 400, "Value for 'source_lang' not supported.")
        // DeepL's own reasons first (codes that name no language, target before source; invalid
        // options), then what no installed route serves (Japanese here).
        try await check(#"{"text": ["a"], "target_lang": "JA", "source_lang": "XX"}"#, 400, "Value for 'source_lang' not supported.")
        try await check(#"{"text": ["a"], "target_lang": "XX", "source_lang": "YY"}"#, 400, "Value for 'target_lang' not supported.")
        try await check(#"{"text": ["a"], "target_lang": "JA", "split_sentences": "2"}"#, 400, "Parameter 'split_sentences' is invalid.")
        try await check(#"{"text": ["a"], "target_lang": "ES", "split_sentences": "2"}"#, 400, "Parameter 'split_sentences' is invalid.")
        try await check(#"{"text": ["a"], "target_lang": "ES", "tag_handling": "markdown"}"#, 400, "Parameter 'tag_handling' is invalid.")
        try await check(#"{"text": ["a"], "target_lang": "ES", "formality": "more"}"#, 400, "'formality' is not supported for given 'target_lang'.")
        try await check(#"{"text": ["a"], "target_lang": "ES", "formality": "casual"}"#, 400, "Parameter 'formality' is invalid.")
        try await check(#"{"text": ["a"], "target_lang": "ES", "glossary_id": "g"}"#, 400, "Use of a glossary requires the source_lang parameter to be specified")
        try await check(#"{"text": ["a"], "target_lang": "ES", "style_id": "s"}"#, 400, "Parameter 'style_id' is not supported by this server.")
        let many = "{\"target_lang\": \"ES\", \"text\": [" + Array(repeating: "\"a\"", count: 51).joined(separator: ",") + "]}"
        try await check(many, 413, "Too many text segments: 51 given, at most 50 per request.")
        let get = try await live.send("GET", "/v2/translate?text=a&target_lang=ES", headers: key)
        #expect(get.status == 405 && get.text.hasPrefix("{\"message\":"))
        await live.stop()
    }

    @Test("usage counts this key's characters; languages reads type from a form body on GET")
    func usageAndLanguages() async throws {
        let live = try await LiveServer.start()
        let before = try await live.get("/v2/usage", headers: ["Authorization": "DeepL-Auth-Key counter"])
        #expect(before.text == #"{"character_count":0,"character_limit":1000000000000}"#)
        _ = try await live.post("/v2/translate", #"{"text": ["hello", "día"], "target_lang": "ES"}"#, contentType: json,
                                headers: ["Authorization": "DeepL-Auth-Key counter"])
        let after = try await live.send("POST", "/v2/usage", headers: ["Authorization": "DeepL-Auth-Key counter"])
        #expect(after.text == #"{"character_count":8,"character_limit":1000000000000}"#)
        let other = try await live.get("/v2/usage", headers: ["Authorization": "DeepL-Auth-Key someone-else"])
        #expect(other.text == #"{"character_count":0,"character_limit":1000000000000}"#)
        let sources = try await live.get("/v2/languages", headers: key)
        #expect(sources.text == #"[{"language":"EN","name":"English"},{"language":"ES","name":"Spanish"}]"#)
        let targets = try await live.send("GET", "/v2/languages", "type=target", contentType: form, headers: key)
        #expect(targets.text == #"[{"language":"EN-GB","name":"English (British)","supports_formality":false},{"language":"EN-US","name":"English (American)","supports_formality":false},{"language":"ES","name":"Spanish","supports_formality":false},{"language":"FR","name":"French","supports_formality":false}]"#)
        let bad = try await live.get("/v2/languages?type=both", headers: key)
        #expect(bad.status == 400 && bad.text == #"{"message":"Parameter 'type' is invalid. 'source' and 'target' are valid values."}"#)
        await live.stop()
    }
}
