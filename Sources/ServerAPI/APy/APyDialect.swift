import HTTPServer

/// Apertium APy's `/translate`, `/listPairs` and `/identifyLang`, answering in APy's shapes with
/// ISO 639-3 codes (`eng`, `spa`) and accepting 639-1 too. `/translate` is shared with
/// LibreTranslate: APy's requests are the ones that carry `langpair` (and every GET).
enum APyDialect {
    static func make(_ context: DialectContext) -> Dialect {
        let api = APyAPI(service: context.service)
        let callback = ParameterDoc("callback", "JSONP function name.")
        return Dialect(
            name: "apy", title: "Apertium APy", version: "0.13",
            summary: "Apertium's HTTP API (apertium-apy): GET or form POST, ISO 639-3 codes (639-1 accepted), JSONP via callback. Point APy clients at the server root.",
            endpoints: [
                Endpoint("apy_translate", ["GET", "POST"], "/translate", input: .queryAndForm,
                         claims: { RequestPeek.hasFormParameter($0, "langpair") }, docs: EndpointDocs(
                    summary: "APy: translate q with langpair=eng|spa",
                    description: "Shared with LibreTranslate's POST /translate: a request with langpair (and every GET) is APy's.",
                    parameters: [ParameterDoc("langpair", required: true, "eng|spa (ISO 639-3 or 639-1); an empty source detects."),
                                 ParameterDoc("q", required: true, "Text to translate (once)."),
                                 ParameterDoc("format", "html (default), html-noent or txt."),
                                 ParameterDoc("markUnknown", "yes (default): mark unknown words with *, words that could not be generated with # and words missing from the bilingual dictionary with @, as APy does; no: no marks."), callback],
                    success: "{responseData: {translatedText}, responseDetails: null, responseStatus: 200}.")) { try await api.translate($0) },
                Endpoint("apy_list_pairs", ["GET", "POST"], "/listPairs", input: .queryAndForm, docs: EndpointDocs(
                    summary: "APy: the language pairs available",
                    parameters: [ParameterDoc("src", "Only pairs from this language."),
                                 ParameterDoc("include_deprecated_codes", "1 to list 2-letter spellings too."), callback],
                    success: "{responseData: [{sourceLanguage, targetLanguage}], responseDetails: null, responseStatus: 200}.")) { try api.listPairs($0) },
                Endpoint("apy_identify_lang", ["GET", "POST"], "/identifyLang", input: .queryAndForm, docs: EndpointDocs(
                    summary: "APy: language scores for q, by ISO 639-3 code",
                    parameters: [ParameterDoc("q", required: true, "Text to identify."), callback],
                    success: "{\"<iso639-3>\": score, ...}.")) { try await api.identifyLang($0) },
            ],
            errors: ErrorEnvelope(render: APyEnvelope.errorResponse, documentation: [
                (400, "APy error {\"status\": \"error\", code, message, explanation}."),
                (413, "APy error: the body is over the server's limit."),
                (500, "APy error: the engine failed."),
                (503, "APy error: the server is shutting down or timed out."),
            ]),
            credentials: CredentialReader(places: [.parameter("key")]))
    }
}
