import HTTPServer

/// Apertium APy, every endpoint its web front end and tools call, answering in APy's shapes with
/// ISO 639-3 codes (`eng`, `spa`) and accepting 639-1 too. `/translate` is shared with
/// LibreTranslate: APy's requests are the ones that carry `langpair` (and every GET).
enum APyDialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "apy", title: "Apertium APy", version: "0.11",
        summary: "Apertium's HTTP API (apertium-apy): GET or form POST, ISO 639-3 codes (639-1 accepted), JSONP via callback. Point APy clients (apertium-html-tools, translators, OmegaT) at the server root.",
        keys: .keyed(CredentialReader(places: [.parameter("key")]), requiredByBareFlag: false),
        help: "Apertium APy (/translate with langpair, /list, /listPairs, /identifyLang, /translateChain, /translateDoc, /translatePage, /analyze, /generate, /perWord, /calcCoverage, /listLanguageNames, /stats, /getLocale, /pipedebug)",
        schemas: PackageResources.apy_json, make: make)

    static func make(_ context: DialectContext) -> Dialect {
        let api = APyAPI(service: context.service, languages: context.languages, modes: context.languageModes,
                         stats: context.apyStats, documents: context.documentService, fetcher: context.fetcher)
        let pipelines = context.pipelines
        let callback = ParameterDoc("callback", "JSONP function name.")
        let langpair = ParameterDoc("langpair", required: true, "eng|spa (ISO 639-3 or 639-1).")
        let lang = ParameterDoc("lang", required: true, "A language (eng) or pair (eng-spa) with such a mode (see /list).")
        let marks = ParameterDoc("markUnknown", "yes (default): mark unknown words with *, words that could not be generated with # and words missing from the bilingual dictionary with @, as APy does; no: as APy, the * of unknown words is removed and the # and @ marks stay.")
        func get(_ name: String, _ path: String, _ docs: EndpointDocs, maxBody: Int? = nil,
                 billing: (@Sendable (RoutedRequest) -> Int)? = nil,
                 _ handle: @escaping @Sendable (RoutedRequest) async throws -> EndpointResult) -> Endpoint {
            Endpoint(name, ["GET", "POST"], path, input: maxBody == nil ? .queryAndForm : .upload, maxBodyBytes: maxBody, docs: docs,
                     billing: billing, handle: handle)
        }
        let listDocs = EndpointDocs(
            summary: "APy: installed pairs (q=pairs, the default), analysers, generators or taggers",
            description: "Pairs: without src, the pairs translated directly; with src, every language reachable from it (through others too). Modes: {\"eng\": \"eng-morph\", \"eng-spa\": \"eng-spa-morph\", …}, the installed analysis modes and those of every installed pair.",
            parameters: [ParameterDoc("q", "pairs (default), analyzers (analysers), generators, taggers (disambiguators) or spellers."),
                         ParameterDoc("src", "Only pairs from this language."),
                         ParameterDoc("include_deprecated_codes", "Present: list 2-letter spellings too."), callback],
            success: "{responseData: [{sourceLanguage, targetLanguage}], responseDetails: null, responseStatus: 200}, or {key: mode name}.", schema: "apy.ListResponse")
        return Dialect(Self.registration,
            endpoints: [
                Endpoint("apy_translate", ["GET", "POST"], "/translate", input: .queryAndForm,
                         claims: { RequestPeek.hasFormParameter($0, "langpair") }, docs: EndpointDocs(
                    summary: "APy: translate q with langpair=eng|spa",
                    description: "Shared with LibreTranslate's POST /translate: a request with langpair (and every GET) is APy's. A pair with no direct engine is translated through a pivot where APy would answer that it is not installed.",
                    parameters: [langpair, ParameterDoc("q", required: true, "Text to translate (once)."),
                                 ParameterDoc("format", "html (default), html-noent or txt."), marks, callback],
                    success: "{responseData: {translatedText}, responseDetails: null, responseStatus: 200}.", schema: "apy.TranslateResponse"),
                    billing: Billing.codePoints(of: "q")) { try await api.translate($0) },
                get("apy_translate_raw", "/translateRaw", EndpointDocs(
                    summary: "APy: a pair's pipeline output for q, in Apertium's stream format, not reformatted",
                    description: "The body is what the pair's last stage wrote (superblanks such as [<b>], escapes and the deformatter's closing .[] kept), labelled application/json as APy labels it, without JSONP. Only a pair's own pipeline, never a pivot. Several q are refused, where APy keeps the last.",
                    parameters: [langpair, ParameterDoc("q", required: true, "Text to translate (once)."),
                                 ParameterDoc("deformat", "True (default): q is HTML, deformatted first; False (exactly): q is already in the stream format."),
                                 ParameterDoc("markUnknown", "yes (default), true or 1: marks (*, #, @), as APy compares it (case-sensitive); anything else: as APy, the * of unknown words is removed and the # and @ marks stay.")],
                    success: "The stream, e.g. La[ <b>]casa[<\\/b> ]es roja.[]", schema: "apy.RawStream", successType: "application/json"),
                    billing: Billing.codePoints(of: "q")) {
                    try await api.translateRaw($0, pipelines: pipelines)
                },
                get("apy_list", "/list", listDocs) { try await api.list($0) },
                get("apy_list_pairs", "/listPairs", listDocs) { try await api.list($0) },
                get("apy_identify_lang", "/identifyLang", EndpointDocs(
                    summary: "APy: language scores for q, by ISO 639-3 code",
                    parameters: [ParameterDoc("q", required: true, "Text to identify."), callback],
                    success: "{\"<iso639-3>\": score, ...}.", schema: "apy.Scores")) { try await api.identifyLang($0) },
                get("apy_translate_chain", "/translateChain", EndpointDocs(
                    summary: "APy: translate through a chain of pairs (eng|spa|cat), or along the shortest path (eng|cat)",
                    parameters: [ParameterDoc("langpairs", required: true, "Languages joined by |."),
                                 ParameterDoc("q", "Text; without it, only the chain is answered."), marks, callback],
                    success: "{responseData: {translatedText, translationChain: [codes]}, responseDetails: null, responseStatus: 200}.", schema: "apy.ChainResponse"),
                    billing: Billing.codePoints(of: "q")) {
                    try await api.translateChain($0)
                },
                get("apy_translate_doc", "/translateDoc", EndpointDocs(
                    summary: "APy: translate an uploaded document (multipart field file)",
                    description: "txt, html, rtf, docx, pptx, xlsx, odt, odp, ods, told by their contents; every byte outside the text is kept. At most \(context.documentService.maxBytes) bytes.",
                    parameters: [langpair, ParameterDoc("file", required: true, "The document (multipart/form-data)."), marks],
                    success: "The translated document, in its own format.", successType: "application/octet-stream"),
                    maxBody: context.documentService.uploadLimit, billing: context.documentService.billing) { try await api.translateDoc($0) },
                get("apy_translate_page", "/translatePage", EndpointDocs(
                    summary: "APy: fetch a web page and translate it (only from hosts allowed with glossa serve --allow-fetch)",
                    parameters: [langpair, ParameterDoc("url", required: true, "The page (http:// is assumed)."), marks, callback],
                    success: "{responseData: {translatedText}, responseDetails: null, responseStatus: 200}.", schema: "apy.TranslateResponse")) { try await api.translatePage($0) },
                get("apy_analyze", "/analyze", EndpointDocs(
                    summary: "APy: morphological analysis of q",
                    parameters: [ParameterDoc("q", required: true, "Text."), lang, callback],
                    success: "[[\"houses/house<n><pl>/…\", \"houses \"], …].", schema: "apy.StringPairs")) { try await api.analyze($0) },
                get("apy_analyse", "/analyse", EndpointDocs(summary: "APy: /analyze, British spelling", parameters: [ParameterDoc("q", required: true, "Text."), lang],
                                                        success: "As /analyze.", schema: "apy.StringPairs")) { try await api.analyze($0) },
                get("apy_generate", "/generate", EndpointDocs(
                    summary: "APy: surface forms of lexical units",
                    parameters: [ParameterDoc("q", required: true, "^lemma<tags>$ units (or one without ^$)."), lang, callback],
                    success: "[[\"casas\", \"^casa<n><f><pl>$\"], …].", schema: "apy.StringPairs")) { try await api.generate($0) },
                get("apy_per_word", "/perWord", EndpointDocs(
                    summary: "APy: per-word analyses, tagger choices and dictionary translations",
                    parameters: [lang, ParameterDoc("modes", required: true, "Space-separated: morph, tagger, disambig, biltrans, translate (the last two need a pair lang, eng-spa)."),
                                 ParameterDoc("q", required: true, "Text."), ParameterDoc("pos", .integer, "Only the word at this position (1-based)."), callback],
                    success: "[{input, morph?, tagger?, biltrans?, translate?}, …].", schema: "apy.PerWord")) { try await api.perWord($0) },
                get("apy_calc_coverage", "/calcCoverage", EndpointDocs(
                    summary: "APy: the share of q's words the analyser knows",
                    parameters: [lang, ParameterDoc("q", required: true, "Text."), callback], success: "[0.75].", schema: "apy.Coverage")) { try await api.calcCoverage($0) },
                get("apy_list_language_names", "/listLanguageNames", EndpointDocs(
                    summary: "APy: language names in a language (from ICU)",
                    parameters: [ParameterDoc("locale", "The language to name them in; else Accept-Language, else English."),
                                 ParameterDoc("languages", "Space-separated codes; default: every language served."), callback],
                    success: "{\"spa\": \"español\", …}.", schema: "apy.Names")) { try api.listLanguageNames($0) },
                get("apy_stats", "/stats", EndpointDocs(
                    summary: "APy: uptime, uses per pair, running pipelines, recent throughput",
                    parameters: [ParameterDoc("requests", .integer, "How many recent requests periodStats covers (default 1000)."), callback],
                    success: "{responseData: {uptime, useCount, runningPipes, holdingPipes, periodStats: {charsPerSec, totChars, totTimeSpent, requests, ageFirstRequest}}, …}.", schema: "apy.StatsResponse")) {
                    try await api.stats($0, pipelines: pipelines)
                },
                get("apy_get_locale", "/getLocale", EndpointDocs(
                    summary: "APy: the request's Accept-Language tags", success: "[\"nb-NO\", \"en\"].", schema: "apy.Locales")) { try api.getLocale($0) },
                get("apy_pipedebug", "/pipedebug", EndpointDocs(
                    summary: "APy: a pair's pipeline stage by stage (each stage a fresh process: a debugging aid)",
                    parameters: [ParameterDoc("q", required: true, "Text."), langpair, callback],
                    success: "{responseData: {output: [input, after each stage…], pipeline: [commands]}, …}.", schema: "apy.PipeDebugResponse")) {
                    try await api.pipeDebug($0, pipelines: pipelines)
                },
            ],
            errors: ErrorEnvelope(render: APyEnvelope.errorResponse, documentation: [
                (400, "APy error {\"status\": \"error\", code, message, explanation}: \"Missing argument q\", \"That pair is invalid, use e.g. eng|spa\", \"That pair is not installed\", \"That mode is not installed\", \"Invalid file type …\"."),
                (403, "APy error: fetching pages from that host is not allowed."),
                (404, "APy error: the page could not be fetched."),
                (413, "APy error: \"That file is too large\"."),
                (429, "APy error: a rate limit or quota, where the operator set one (Retry-After)."),
                (500, "APy error: the engine failed."),
                (503, "APy error: the server is shutting down or timed out."),
            ]))
    }
}
