import TranslationService

/// Google Cloud Translation v2 (Basic) at `/language/translate/v2`, `/v2/detect`, `/v2/languages`:
/// every encoding real clients send, Google's exact shapes, Google's error envelope, and the key
/// as `key=` or `X-Goog-Api-Key`.
enum GoogleV2Dialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "google_v2", title: "Google Cloud Translation v2", version: "v2",
        summary: "Point google-cloud-translate at this server with client_options={\"api_endpoint\": URL}, or google-api-python-client with api_endpoint URL/language/translate/. Parameters in the query, a form body or JSON ({\"data\": {...}} is unwrapped).",
        keys: .keyed(CredentialReader(places: [.parameter("key"), .header("X-Goog-Api-Key")]), requiredByBareFlag: true),
        help: "Google Cloud Translation v2 (/language/translate/v2, /v2/detect, /v2/languages)",
        schemas: PackageResources.google_v2_json, make: make)

    static func make(_ context: DialectContext) -> Dialect {
        let api = GoogleV2API(service: context.service)
        let key = ParameterDoc("key", "API key (also the X-Goog-Api-Key header).")
        let prettyPrint = ParameterDoc("prettyPrint", "false for compact JSON (default true).")
        let callback = ParameterDoc("callback", "JSONP function name.")
        return Dialect(Self.registration,
            endpoints: [
                Endpoint("google_v2_translate", ["GET", "POST"], "/language/translate/v2", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "Google v2: translate one or more q into target",
                    parameters: [
                        ParameterDoc("q", .stringOrList, required: true, "Text to translate; repeat (or send a JSON array) for several, at most 128."),
                        ParameterDoc("target", required: true, "Language to translate into (en, es, pt-BR, zh-TW)."),
                        ParameterDoc("source", "Language of q; detected when omitted (then detectedSourceLanguage is returned)."),
                        ParameterDoc("format", "html (default: tags kept, text HTML-escaped on output) or text."),
                        ParameterDoc("model", "nmt or base; echoed as model when given."),
                        key, prettyPrint, callback,
                    ],
                    success: "{\"data\": {\"translations\": [{\"translatedText\", \"detectedSourceLanguage\"?, \"model\"?}]}}, one per q in order.", schema: "google_v2.TranslateResponse"), billing: Billing.codePoints(of: "q")) {
                    try await api.translate($0)
                },
                Endpoint("google_v2_detect", ["GET", "POST"], "/language/translate/v2/detect", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "Google v2: detect the language of each q",
                    parameters: [ParameterDoc("q", .stringOrList, required: true, "Text to detect; repeat for several, at most 128."),
                                 key, prettyPrint, callback],
                    success: "{\"data\": {\"detections\": [[{\"language\", \"isReliable\", \"confidence\"}]]}}: one list of one detection per q.", schema: "google_v2.DetectResponse"), billing: Billing.codePoints(of: "q")) {
                    try await api.detect($0)
                },
                Endpoint("google_v2_languages", ["GET", "POST"], "/language/translate/v2/languages", input: .queryFormOrJSON, docs: EndpointDocs(
                    summary: "Google v2: supported languages, named in target when given",
                    parameters: [ParameterDoc("target", "Language to name the languages in; names are omitted without it."),
                                 ParameterDoc("model", "nmt or base."), key, prettyPrint, callback],
                    success: "{\"data\": {\"languages\": [{\"language\", \"name\"?}]}}, sorted by code (by name with target).", schema: "google_v2.LanguagesResponse")) {
                    try api.languages($0)
                },
            ],
            errors: ErrorEnvelope(render: GoogleV2Error.response, documentation: [
                (400, "Google error envelope {\"error\": {code, message, errors: [{message, domain, reason}], status}}; an invalid key is reason keyInvalid."),
                (403, "Google error envelope: missing key (forbidden), a key's rate limit (userRateLimitExceeded) or monthly quota (dailyLimitExceeded), domain usageLimits, with Retry-After."),
                (429, "Google error envelope: the rate limit of callers without a key (RESOURCE_EXHAUSTED, rateLimitExceeded), with Retry-After."),
                (405, "Google error envelope: wrong method."),
                (413, "Google error envelope: the body is over the server's limit."),
                (500, "Google error envelope: the engine failed."),
                (503, "Google error envelope: the key store is unavailable, the server is shutting down or timed out."),
            ]))
    }
}
