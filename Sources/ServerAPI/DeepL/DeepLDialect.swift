import HTTPServer

/// DeepL API v2: `POST /v2/translate`, `GET|POST /v2/usage`, `GET|POST /v2/languages`, with
/// DeepL's validation, upper-case codes, `{"message"}` errors and the key in
/// `Authorization: DeepL-Auth-Key …`. Point deepl-python at the server root:
/// `deepl.Translator(key, server_url="http://127.0.0.1:8080")`.
enum DeepLDialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "deepl", title: "DeepL API v2", version: "v2",
        summary: "DeepL's text translation API: point deepl-python (deepl.Translator(key, server_url=URL)) or any DeepL client at the server root. JSON or form bodies; the key in Authorization: DeepL-Auth-Key.",
        keys: .keyed(CredentialReader(places: [.scheme(header: "Authorization", scheme: "DeepL-Auth-Key"), .parameter("auth_key")]), requiredByBareFlag: true),
        help: "DeepL API v2 and v3 (/v2/translate, /v2/usage, /v2/languages, /v2/document, /v2/glossaries, /v2/glossary-language-pairs, /v3/glossaries, /v3/languages)",
        schemas: PackageResources.deepl_json, make: make)

    static func make(_ context: DialectContext) -> Dialect {
        let glossaries = DeepLGlossaryStore(glossaries: GlossaryAccess(store: context.glossaries, access: context.access), languages: context.languages)
        let api = DeepLAPI(service: context.service, languages: context.languages, ledger: CharacterLedger(), access: context.access,
                           glossaries: glossaries)
        let documents = DeepLDocuments(documents: context.documentService, jobs: context.documentJobs, languages: context.languages,
                                       glossaries: glossaries)
        let key = ParameterDoc("document_key", required: true, "The key the upload answered.")
        return Dialect(Self.registration,
            endpoints: [
                Endpoint("deepl_translate", ["POST"], "/v2/translate", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "DeepL: translate each text into target_lang",
                    parameters: [
                        ParameterDoc("text", .stringOrList, required: true, "Texts to translate: repeated in a form, a JSON list; at most 50."),
                        ParameterDoc("target_lang", required: true, "EN-GB, EN-US, PT-PT, PT-BR, ZH-HANS, DE, ES, … (case-insensitive)."),
                        ParameterDoc("source_lang", "Source language; detected per text when omitted."),
                        ParameterDoc("tag_handling", "html or xml: tags are kept and only the text between them is translated."),
                        ParameterDoc("show_billed_characters", .boolean, "true: each translation carries billed_characters (code points)."),
                        ParameterDoc("split_sentences", "1 (default): line breaks and sentence marks end sentences; 0 or nonewlines: line breaks do not (sentence marks always do: the engines read them)."),
                        ParameterDoc("preserve_formatting", .boolean, "Accepted (formatting is always kept)."),
                        ParameterDoc("ignore_tags", .stringOrList, "Elements whose content is not translated (a list, or comma-separated), besides translate=\"no\", <script>, <style> and <code>."),
                        ParameterDoc("splitting_tags", .stringOrList, "Elements that end a sentence."),
                        ParameterDoc("non_splitting_tags", .stringOrList, "Elements that never end a sentence."),
                        ParameterDoc("outline_detection", .boolean, "true (default): block elements (p, li, td, …) end sentences; false: only splitting_tags do."),
                        ParameterDoc("formality", "default, prefer_more or prefer_less; more and less are refused (no target supports formality)."),
                        ParameterDoc("model_type", "quality_optimized, prefer_quality_optimized or latency_optimized; echoed as model_type_used."),
                        ParameterDoc("context", "Accepted; not translated and not billed."),
                        ParameterDoc("glossary_id", "A glossary (v2, or v3 with a dictionary for the pair) whose terms the translation must use; needs source_lang."),
                        ParameterDoc("glossary_ids", "Up to 5 glossaries, merged (the first wins for a source term); needs source_lang."),
                    ],
                    success: "{\"translations\": [{\"detected_source_language\", \"text\", \"billed_characters\"?, \"model_type_used\"?}]}, one per text in order.", schema: "deepl.TranslateResponse"), billing: Billing.codePoints(of: "text")) {
                    try await api.translate($0)
                },
                Endpoint("deepl_usage", ["GET", "POST"], "/v2/usage", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "DeepL: characters translated with this key this month (where keys are checked), else since the server started",
                    success: "{\"character_count\", \"character_limit\"}; the limit is the key's monthly quota, 10^12 when none is set.", schema: "deepl.Usage")) {
                    try await api.usage($0)
                },
                Endpoint("deepl_languages", ["GET", "POST"], "/v2/languages", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "DeepL: source or target languages",
                    parameters: [ParameterDoc("type", "source (default) or target; also read from a form body on GET, as deepl-python sends it.")],
                    success: "[{\"language\", \"name\", \"supports_formality\"? (targets)}], sorted by code.", schema: "deepl.Languages")) {
                    try api.languages($0)
                },
                Endpoint("deepl_document_upload", ["POST"], "/v2/document", input: .uploadOrJSON,
                         maxBodyBytes: context.documentService.uploadLimit, docs: EndpointDocs(
                    summary: "DeepL: upload a document to translate (txt, html, rtf, docx, pptx, xlsx, odt, odp, ods)",
                    parameters: [ParameterDoc("file", required: true, "The document (multipart)."),
                                 ParameterDoc("target_lang", required: true, "Target language."),
                                 ParameterDoc("source_lang", "Source language; detected when omitted."),
                                 ParameterDoc("filename", "Name for the download."),
                                 ParameterDoc("glossary_id", "A glossary whose terms the translation must use; needs source_lang.")],
                    success: "{\"document_id\", \"document_key\"}.", schema: "deepl.DocumentHandle"),
                    billing: context.documentService.billing) { try await documents.upload($0) },
                Endpoint("deepl_document_status", ["GET", "POST"], "/v2/document/{document_id}", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "DeepL: a document's status",
                    parameters: [ParameterDoc("document_id", inPath: true, "From the upload."), key],
                    success: "{\"document_id\", \"status\": queued|translating|done|error, \"seconds_remaining\"?, \"billed_characters\"?, \"error_message\"?}; 404 when unknown.", schema: "deepl.DocumentStatus")) {
                    try await documents.status($0)
                },
                Endpoint("deepl_document_result", ["GET", "POST"], "/v2/document/{document_id}/result", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "DeepL: download the translated document (once)",
                    parameters: [ParameterDoc("document_id", inPath: true, "From the upload."), key],
                    success: "The document; 503 {\"message\": \"Document translation is not done\"} before it is; 404 when unknown or downloaded.",
                    successType: "application/octet-stream")) { try await documents.result($0) },
            ] + DeepLGlossaryEndpoints.make(glossaries),
            errors: ErrorEnvelope(render: DeepLError.response, documentation: [
                (400, "{\"message\": \"…\"}: a missing or invalid parameter (DeepL's messages)."),
                (403, "{\"message\": \"…\"}: authorization failed."),
                (404, "{\"message\": \"…\"}: not found."),
                (413, "{\"message\": \"…\"}: too many texts, or a body over the server's limit."),
                (429, "{\"message\": \"…\"}: too many requests (Retry-After)."),
                (456, "{\"message\": \"Quota for this billing period has been exceeded.\"}."),
                (500, "{\"message\": \"…\"}: the engine failed."),
                (503, "{\"message\": \"…\"}: the key store is unavailable, or the server is shutting down (Retry-After)."),
            ]))
    }
}
