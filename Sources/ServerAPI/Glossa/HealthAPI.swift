import GlossaWire
import HTTPServer
import TranslationService

/// `GET /health`, LibreTranslate's own check, and `GET /glossa/v1/health`, the full report: what
/// each engine loaded and what it skipped at start, and why.
struct HealthAPI: Sendable {
    let service: TranslationService
    let started: ContinuousClock.Instant

    /// `{"status": "ok"}`, byte for byte what LibreTranslate answers (its `app.py` and its own
    /// test_api_health compare the whole body), so the monitors and clients of a LibreTranslate
    /// keep working; `{"status": "no_pairs"}` with 503 while nothing can be translated, so a load
    /// balancer sends no traffic there.
    func summary() async -> EndpointResult {
        let loaded = await service.status().reduce(0) { $0 + $1.loaded.count }
        return EndpointResult(response: jsonResponse(.object([("status", .string(loaded > 0 ? "ok" : "no_pairs"))]),
                                                     status: loaded > 0 ? 200 : 503))
    }

    func health() async -> EndpointResult {
        let statuses = await service.status()
        let loaded = statuses.reduce(0) { $0 + $1.loaded.count }
        let checking = service.checking
        let engines: [JSON] = statuses.map { s in
            // While the start-up check of this engine's pairs goes on: how far it has got (the
            // pairs not checked yet are served, each checked before its first translation).
            let check: [(String, JSON)] = checking[s.engine].map {
                [("checking", .object([("checked", .int($0.checked)), ("total", .int($0.total))]))]
            } ?? []
            return .object([
                ("engine", .string(s.engine)),
                ("loaded", .array(s.loaded.map(JSON.string))),
                ("skipped", .object(s.skipped.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })),
                ("unavailable", .object(s.unavailable.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })),
            ] + check + (s.inMemory.map { [("inMemory", JSON.array($0.map(JSON.string)))] } ?? []))
        }
        let uptime = ContinuousClock.now - started
        let seconds = Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18
        let body: JSON = .object([
            ("status", .string(loaded > 0 ? "ok" : "no_pairs")),
            ("pairs", .int(loaded)),
            ("checking", .bool(!checking.isEmpty)),
            ("engines", .array(engines)),
            ("uptimeSeconds", .double((seconds * 1000).rounded() / 1000)),
        ])
        return EndpointResult(response: jsonResponse(body, status: loaded > 0 ? 200 : 503, style: JSON.Style(pretty: true)))
    }
}
