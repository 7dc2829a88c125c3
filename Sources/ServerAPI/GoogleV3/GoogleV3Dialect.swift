import TranslationService

/// Google Cloud Translation v3 (Advanced) over REST at `/v3/projects/{project}[/locations/{location}]`:
/// `:translateText`, `:detectLanguage`, `/supportedLanguages`, `:translateDocument`, as Google's
/// own client sends them (`TranslationServiceClient(transport="rest", client_options={"api_endpoint": URL})`:
/// proto3 JSON in camelCase, `$alt=json;enum-encoding=int` in the query, which changes nothing
/// here). Any project and location name is accepted: this server is one project. Errors in v3's
/// envelope (``GoogleV3Error``); the key as v2 carries it (`key=`, `X-Goog-Api-Key`) or as an
/// OAuth bearer token, which is how v3's clients authenticate.
enum GoogleV3Dialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "google_v3", title: "Google Cloud Translation v3", version: "v3",
        summary: "Point google-cloud-translate's TranslationServiceClient at this server with transport=\"rest\", credentials=AnonymousCredentials() and client_options={\"api_endpoint\": URL}. JSON bodies in camelCase.",
        keys: .keyed(CredentialReader(places: [.parameter("key"), .header("X-Goog-Api-Key"), .scheme(header: "Authorization", scheme: "Bearer")]), requiredByBareFlag: true),
        help: "Google Cloud Translation v3 over REST (/v3/projects/P[/locations/L]:translateText, :detectLanguage, /supportedLanguages, /v3/projects/P/locations/L:translateDocument for docx, pptx and xlsx, and …/glossaries)",
        schemas: PackageResources.google_v3_json, make: make)

    static func make(_ context: DialectContext) -> Dialect {
        let glossaries = GoogleV3Glossaries(glossaries: GlossaryAccess(store: context.glossaries, access: context.access))
        let api = GoogleV3API(service: context.service, languages: context.languages, glossaries: glossaries)
        let documents = GoogleV3Documents(documents: context.documentService, glossaries: glossaries)
        let project = ParameterDoc("project", required: true, inPath: true, "Any project id or number (this server is one project).")
        let location = ParameterDoc("location", required: true, inPath: true, "Any location (global, us-central1, …).")
        let key = ParameterDoc("key", "API key (also the X-Goog-Api-Key header, or Authorization: Bearer).")
        let mimeType = ParameterDoc("mimeType", "text/html (default: tags kept, text HTML-escaped on output) or text/plain.")
        let model = ParameterDoc("model", "general/nmt (or its full name projects/…/models/general/nmt); echoed by its full name when given.")
        // Each method at the project and at a location, as Google serves it.
        func both(_ name: String, _ methods: [String], _ tail: String, input: ParameterInput = .queryAndOwnJSON, docs: EndpointDocs,
                  billing: (@Sendable (RoutedRequest) -> Int)? = nil,
                  _ handle: @escaping @Sendable (RoutedRequest) async throws -> EndpointResult) -> [Endpoint] {
            let separator = tail.hasPrefix(":") ? "" : "/"
            return [(["/v3/projects/{project}", separator, tail].joined(), [project]),
                    (["/v3/projects/{project}/locations/{location}", separator, tail].joined(), [project, location])].map { path, place in
                var documented = docs
                documented.parameters = place + docs.parameters
                return Endpoint(name, methods, path, input: input, docs: documented, billing: billing, handle: handle)
            }
        }
        let translateDocs = EndpointDocs(
            summary: "Google v3: translate contents into targetLanguageCode",
            parameters: [
                ParameterDoc("contents", .stringOrList, required: true, "Texts to translate, at most 1,024."),
                ParameterDoc("targetLanguageCode", required: true, "Language to translate into (es, pt-BR, zh-TW)."),
                ParameterDoc("sourceLanguageCode", "Language of contents; detected per text when omitted (then detectedLanguageCode is returned)."),
                mimeType, model,
                ParameterDoc("glossaryConfig", "{glossary, ignoreCase}: a glossary of this server (projects/…/glossaries/ID); needs sourceLanguageCode; the answer adds glossaryTranslations."),
                ParameterDoc("labels", "Accepted and not used."), key,
            ],
            success: "{\"translations\": [{\"translatedText\", \"detectedLanguageCode\"?, \"model\"?}]}, one per content in order.", schema: "google_v3.TranslateTextResponse")
        let detectDocs = EndpointDocs(
            summary: "Google v3: detect the language of content",
            parameters: [ParameterDoc("content", required: true, "Text whose language to detect."), mimeType,
                         ParameterDoc("model", "language-detection/default."), ParameterDoc("labels", "Accepted and not used."), key],
            success: "{\"languages\": [{\"languageCode\", \"confidence\"}]}: always one (und for text with no language in it).", schema: "google_v3.DetectLanguageResponse")
        let languagesDocs = EndpointDocs(
            summary: "Google v3: supported languages, named in displayLanguageCode when given",
            parameters: [ParameterDoc("displayLanguageCode", "Language to name the languages in; names are omitted without it."),
                         ParameterDoc("model", "general/nmt."), key],
            success: "{\"languages\": [{\"languageCode\", \"displayName\"?, \"supportSource\", \"supportTarget\"}]}, sorted by code.", schema: "google_v3.SupportedLanguages")
        let documentDocs = EndpointDocs(
            summary: "Google v3: translate a docx, pptx or xlsx document sent inline",
            parameters: [
                ParameterDoc("documentInputConfig", required: true, "{content: the document in base64, mimeType}; gcsSource is refused."),
                ParameterDoc("targetLanguageCode", required: true, "Language to translate into."),
                ParameterDoc("sourceLanguageCode", "Language of the document; detected once from its text when omitted."),
                ParameterDoc("documentOutputConfig", "{mimeType}; gcsDestination is refused."), model, key,
                ParameterDoc("glossaryConfig", "{glossary, ignoreCase}: a glossary of this server; needs sourceLanguageCode; the answer adds glossaryDocumentTranslation."),
            ],
            success: "{\"documentTranslation\": {\"byteStreamOutputs\": [base64], \"mimeType\", \"detectedLanguageCode\"?}, \"glossaryDocumentTranslation\"?, \"glossaryConfig\"?, \"model\"?}.", schema: "google_v3.TranslateDocumentResponse")
        let documentLimit = context.documentService.base64UploadLimit
        return Dialect(Self.registration,
            endpoints: both("google_v3_translate_text", ["POST"], ":translateText", docs: translateDocs,
                            billing: Billing.jsonCodePoints(of: "contents")) { try await api.translateText($0) }
                + both("google_v3_detect_language", ["POST"], ":detectLanguage", docs: detectDocs,
                       billing: Billing.jsonCodePoints(of: "content")) { try await api.detectLanguage($0) }
                + both("google_v3_supported_languages", ["GET"], "supportedLanguages", input: .queryFormOrJSON, docs: languagesDocs) {
                    try api.supportedLanguages($0)
                }
                + [Endpoint("google_v3_translate_document", ["POST"], "/v3/projects/{project}/locations/{location}:translateDocument",
                            input: .queryAndOwnJSON, maxBodyBytes: documentLimit, docs: { var d = documentDocs; d.parameters = [project, location] + d.parameters; return d }(),
                            billing: Billing.jsonDocument("documentInputConfig", "content", translator: context.documentService.translator)) {
                       try await documents.translate($0)
                   }]
                + glossaryEndpoints(glossaries, project: project, location: location, key: key),
            errors: ErrorEnvelope(render: GoogleV3Error.response, documentation: [
                (400, "Google v3 error envelope {\"error\": {code, message, status: INVALID_ARGUMENT, details: [ErrorInfo]}}."),
                (403, "Google v3 error envelope: missing key, a key's rate limit or monthly quota (PERMISSION_DENIED), with Retry-After."),
                (404, "Google v3 error envelope: a glossary that does not exist (NOT_FOUND)."),
                (405, "Google v3 error envelope: wrong method."),
                (413, "Google v3 error envelope: the body is over the server's limit."),
                (429, "Google v3 error envelope: the rate limit of callers without a key (RESOURCE_EXHAUSTED), with Retry-After."),
                (500, "Google v3 error envelope: the engine failed (INTERNAL)."),
                (503, "Google v3 error envelope: the key store is unavailable, the server is shutting down or timed out (UNAVAILABLE)."),
            ]))
    }

    /// The glossary paths over the server's glossary store (``GoogleV3Glossaries``).
    static func glossaryEndpoints(_ glossaries: GoogleV3Glossaries, project: ParameterDoc, location: ParameterDoc, key: ParameterDoc) -> [Endpoint] {
        let base = "/v3/projects/{project}/locations/{location}/glossaries"
        let glossary = ParameterDoc("glossary", required: true, inPath: true, "The glossary's id.")
        return [
            Endpoint("google_v3_glossaries", ["GET"], base, input: .queryAndOwnJSON, docs: EndpointDocs(
                summary: "Google v3: list this caller's one-direction glossaries (made through DeepL's /v2/glossaries or glossa glossary create)",
                parameters: [project, location, key],
                success: "{\"glossaries\": [{\"name\", \"languagePair\", \"entryCount\", \"submitTime\", \"endTime\", \"displayName\"}]}; {} when none.", schema: "google_v3.ListGlossariesResponse")) { try await glossaries.list($0) },
            Endpoint("google_v3_glossary_create", ["POST"], base, input: .queryAndOwnJSON, docs: EndpointDocs(
                summary: "Google v3: create a glossary (refused: v3 reads entries from Cloud Storage, which an offline server cannot reach)",
                parameters: [project, location, key],
                success: "Never: 400 INVALID_ARGUMENT saying how to make one (DeepL's /v2/glossaries, glossa glossary create).", schema: "google_v3.Glossary")) { try glossaries.create($0) },
            Endpoint("google_v3_glossary", ["GET", "DELETE"], base + "/{glossary}", input: .queryAndOwnJSON, docs: EndpointDocs(
                summary: "Google v3: read (GET) or delete (DELETE: a finished operation) a glossary", parameters: [project, location, glossary, key],
                success: "The glossary; DELETE: {\"name\", \"done\": true, \"response\"}; 404 NOT_FOUND when this caller has none such.", schema: "google_v3.GlossaryOrOperation")) { try await glossaries.glossary($0) },
        ]
    }
}
