import GlossaWire
import HTTPServer

/// Glossa's own endpoints: the streaming batch and pair list for TranslationKit, `/health` and
/// its details (`/glossa/v1/health`), `/metrics` and `/openapi.json`. Errors use Google's envelope (generic clients read it) with a
/// ``StreamErrorReason`` as `errors[0].reason` (TranslationKit reads it), from `StreamingError`.
enum GlossaDialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "glossa", title: "Glossa", version: "1",
        summary: "Glossa's own endpoints: a streamed batch (NDJSON, one line per text as soon as it is ready) and the pair list that TranslationKit's server backend uses, health, Prometheus metrics and this document.",
        keys: .keyed(CredentialReader(places: [.header("X-Goog-Api-Key"), .scheme(header: "Authorization", scheme: "Bearer")]), requiredByBareFlag: true),
        help: "Glossa's streaming batch (/glossa/v1/translate/stream, newline-delimited JSON as each result is ready), pair list (/glossa/v1/pairs) and usage (/glossa/v1/usage), /health (LibreTranslate's answer), /glossa/v1/health (each engine's pairs, and why any is unavailable), /metrics (Prometheus), /openapi.json (every endpoint)",
        schemas: PackageResources.glossa_json, make: make)

    static func make(_ context: DialectContext) -> Dialect {
        let streaming = StreamingAPI(service: context.service, glossaries: GlossaryAccess(store: context.glossaries, access: context.access))
        let health = HealthAPI(service: context.service, started: context.started)
        let metrics = context.metrics
        let service = context.service
        let documents = context.documents
        let usage = UsageAPI(access: context.access)
        return Dialect(Self.registration,
            endpoints: [
                Endpoint("glossa_translate_stream", ["POST"], "/glossa/v1/translate/stream", docs: EndpointDocs(
                    summary: "Translate a batch, streaming one NDJSON line per text as soon as it is ready",
                    success: "NDJSON", operation: StreamingDocumentation.stream), billing: StreamingRequest.billedCharacters) { try await streaming.stream($0) },
                Endpoint("glossa_pairs", ["GET"], "/glossa/v1/pairs", docs: EndpointDocs(
                    summary: "Every translatable direction, direct or through a pivot",
                    success: "{\"pairs\": [{\"source\": \"en\", \"target\": \"es\", \"path\": [\"en\", \"es\"]}, ...]}; a path longer than two goes through a pivot.", schema: "glossa.Pairs"), open: true) { _ in
                    streaming.pairs()
                },
                Endpoint("glossa_usage", ["GET"], "/glossa/v1/usage", docs: EndpointDocs(
                    summary: "The caller's key (X-Goog-Api-Key or Authorization: Bearer): its limits and its usage this month",
                    success: "{\"key\": {id, name, hint, created}, \"period\": {name, start, end}, \"characters\": {used, limit, remaining}, \"requests\": {count, perMinute}}; limits are null when none is set.", schema: "glossa.Usage",
                    responses: [(404, "This server checks no API keys, so it keeps no usage per key (same envelope).")])) {
                    try await usage.usage($0)
                },
                Endpoint("health", ["GET"], "/health", docs: EndpointDocs(
                    summary: "Whether the server translates: LibreTranslate's health check, exactly its answer; 200 when at least one pair is loaded, else 503 (the details are GET /glossa/v1/health)",
                    success: "{\"status\": \"ok\"}", schema: "glossa.Health",
                    responses: [(503, "No pair is loaded: {\"status\": \"no_pairs\"}.")], responseSchemas: [503: "glossa.Health"]), open: true) { _ in
                    await health.summary()
                },
                Endpoint("glossa_health", ["GET"], "/glossa/v1/health", docs: EndpointDocs(
                    summary: "Engines: pairs loaded, files skipped and pairs unavailable (installed but not working), each with the reason; 200 when at least one pair is loaded, else 503",
                    success: "{\"status\": \"ok\", \"pairs\", \"checking\" (true while the start-up check of installed pairs goes on), \"engines\": [{\"engine\", \"loaded\", \"skipped\", \"unavailable\", \"checking\"? {checked, total} (while this engine's pairs are checked), \"inMemory\"? (the neural engine: pairs whose model is loaded now)}], \"uptimeSeconds\"}.", schema: "glossa.HealthDetails",
                    responses: [(503, "No pair is loaded: the same JSON with \"status\": \"no_pairs\" and \"pairs\": 0 (each engine's skipped and unavailable entries say why).")],
                    responseSchemas: [503: "glossa.HealthDetails"]), open: true) { _ in
                    await health.health()
                },
                Endpoint("metrics", ["GET"], "/metrics", docs: EndpointDocs(
                    summary: "Prometheus metrics: requests, errors, characters translated, latency per endpoint",
                    success: "The Prometheus text exposition (format 0.0.4).", successType: "text/plain"), open: true) { _ in
                    EndpointResult(response: .text(metrics.exposition() + Metrics.exposition(of: service.cacheStatistics),
                                                   contentType: "text/plain; version=0.0.4; charset=utf-8"))
                },
                Endpoint("openapi", ["GET"], "/openapi.json", docs: EndpointDocs(
                    summary: "This OpenAPI 3 document", success: "The OpenAPI 3.0 document of every endpoint.", schema: "glossa.OpenAPI"), open: true) { _ in
                    EndpointResult(response: jsonResponse(documents.openAPI, style: JSON.Style(pretty: true)))
                },
            ],
            errors: ErrorEnvelope(render: { error, _ in StreamingError.response(for: error) }, documentation: [
                (400, "The request was refused: Google's error envelope {\"error\": {code, message, errors, status}}, with a stable reason as errors[0].reason (for the stream: " + StreamingDocumentation.batchReasons.map(\.rawValue).joined(separator: ", ") + ")."),
                (413, "The body is over the server's limit (same envelope)."),
                (403, "A missing or invalid API key, or a rate or quota limit, where keys are checked (same envelope, Retry-After)."),
                (429, "The rate limit of callers without a key, where the operator set one (same envelope, Retry-After)."),
                (503, "The key store is unavailable (same envelope, Retry-After)."),
            ]))
    }
}
