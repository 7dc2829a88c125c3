import AccessControl
import GlossaWire
import HTTPServer
import TranslationCore

/// LibreTranslate 1.9 at the server root: `POST /translate` (shared with APy, told apart by
/// `langpair`), `/detect`, `/languages`, `/frontend/settings`, `/spec`, and the file and suggestion
/// endpoints. Parameters in a form, the query or JSON; the key as `api_key`; errors `{"error"}`.
enum LibreTranslateDialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "libretranslate", title: "LibreTranslate", version: "1.9.6",
        summary: "LibreTranslate's API at the server root: point LibreTranslate clients (libretranslatepy, deep-translator, web front ends) at the bare server URL.",
        keys: .keyed(CredentialReader(places: [.parameter("api_key")]), requiredByBareFlag: true),
        help: "LibreTranslate 1.9 (POST /translate, /detect, /languages, /translate_file, /download_file, /frontend/settings, /spec)",
        schemas: PackageResources.libretranslate_json, make: make)

    static func make(_ context: DialectContext) -> Dialect {
        let api = LibreTranslateAPI(service: context.service, languages: context.languages,
                                    keyMode: context.access?.policy.mode(for: registration.name) ?? .off)
        let documents = context.documents
        let files = LibreTranslateFiles(documents: context.documentService, jobs: context.documentJobs, languages: context.languages)
        let key = ParameterDoc("api_key", "API key.")
        return Dialect(Self.registration,
            endpoints: [
                Endpoint("libretranslate_translate", ["POST"], "/translate", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "LibreTranslate: translate q from source (or auto) into target",
                    description: "Shared with APy's /translate: a POST without langpair is LibreTranslate's.",
                    parameters: [ParameterDoc("q", .stringOrList, required: true, "Text to translate; a JSON list for a batch."),
                                 ParameterDoc("source", required: true, "Source language code, or auto to detect each text."),
                                 ParameterDoc("target", required: true, "Target language code (zh-Hans, zh-Hant, pt-BR and pb, zt accepted)."),
                                 ParameterDoc("format", "text (default) or html."),
                                 ParameterDoc("alternatives", .integer, "Alternative translations wanted (answered with empty lists)."), key],
                    success: "{\"translatedText\", \"detectedLanguage\"? {confidence 0-100, language}, \"alternatives\"?}; lists of them for a batch.", schema: "libretranslate.TranslateResponse"), billing: Billing.codePoints(of: "q")) {
                    try await api.translate($0)
                },
                Endpoint("libretranslate_detect", ["POST"], "/detect", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "LibreTranslate: detect the language of q",
                    parameters: [ParameterDoc("q", .stringOrList, required: true, "Text to detect; a JSON list for one answer per text."), key],
                    success: "[{\"confidence\": 0-100, \"language\"}], most likely first; a list of such lists for a JSON list q.", schema: "libretranslate.DetectResponse")) {
                    try await api.detect($0)
                },
                Endpoint("libretranslate_languages", ["GET"], "/languages", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "LibreTranslate: languages and the targets each translates into",
                    success: "[{\"code\", \"name\", \"targets\": [codes]}].", schema: "libretranslate.Languages"), open: true) { try api.languages($0) },
                Endpoint("libretranslate_frontend_settings", ["GET"], "/frontend/settings", docs: EndpointDocs(
                    summary: "LibreTranslate: settings for its web front end",
                    success: "{\"charLimit\", \"frontendTimeout\", \"apiKeys\", \"keyRequired\", \"suggestions\", \"filesTranslation\", \"supportedFilesFormat\", \"language\": {source, target}}.", schema: "libretranslate.FrontendSettings"), open: true) {
                    api.frontendSettings($0)
                },
                Endpoint("libretranslate_spec", ["GET"], "/spec", docs: EndpointDocs(
                    summary: "LibreTranslate: its endpoints as a Swagger 2.0 document", success: "Swagger 2.0 JSON.", schema: "libretranslate.Swagger"), open: true) { _ in
                    EndpointResult(response: LibreTranslateOutput.render(documents.swagger("libretranslate")))
                },
                Endpoint("libretranslate_translate_file", ["POST"], "/translate_file", input: .uploadOrJSON,
                         maxBodyBytes: context.documentService.uploadLimit, docs: EndpointDocs(
                    summary: "LibreTranslate: translate a file (txt, html, rtf, docx, pptx, xlsx, odt, odp, ods), kept for download",
                    parameters: [ParameterDoc("file", required: true, "The file (multipart)."), ParameterDoc("source", required: true, "Source code or auto."),
                                 ParameterDoc("target", required: true, "Target code."), key],
                    success: "{\"translatedFileUrl\": \"http://HOST/download_file/ID.NAME\"}.", schema: "libretranslate.TranslateFileResponse"),
                    billing: context.documentService.billing) { try await files.translateFile($0) },
                Endpoint("libretranslate_download_file", ["GET"], "/download_file/{filename}", docs: EndpointDocs(
                    summary: "LibreTranslate: download a translated file",
                    parameters: [ParameterDoc("filename", inPath: true, "The name from translatedFileUrl.")],
                    success: "The file.", successType: "application/octet-stream"),
                    // Open, as in LibreTranslate (no access check on it): the link is what
                    // /translate_file answered, and its 128 random bits are what guards it.
                    open: true) { try await files.downloadFile($0) },
                Endpoint("libretranslate_suggest", ["POST"], "/suggest", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "LibreTranslate: suggest a better translation (suggestions are off: 403)",
                    parameters: [ParameterDoc("q", required: true, "Original text."), ParameterDoc("s", required: true, "Suggested translation."),
                                 ParameterDoc("source", required: true, "Source code."), ParameterDoc("target", required: true, "Target code.")],
                    success: "{\"success\": true}.", schema: "libretranslate.SuggestResponse")) { _ in
                    throw APIError.forbidden("Suggestions are disabled on this server.")
                },
            ],
            errors: ErrorEnvelope(render: LibreTranslateError.response, documentation: [
                (400, "{\"error\": \"…\"}: a missing or invalid parameter, an unsupported language or pair, LibreTranslate's messages."),
                (403, "{\"error\": \"…\"}: an invalid API key, or a disabled feature."),
                (405, "{\"error\": \"The method is not allowed for the requested URL.\"}."),
                (429, "{\"error\": \"Slowdown: …\"}: a rate limit."),
                (500, "{\"error\": \"Cannot translate text: …\"}."),
            ]))
    }
}
