import GlossaWire
import HTTPServer
import TranslationService

/// `GET /health`: what each engine loaded and what it skipped at start, and why.
struct HealthAPI: Sendable {
    let service: TranslationService
    let started: ContinuousClock.Instant

    func health() async -> EndpointResult {
        let statuses = await service.status()
        let loaded = statuses.reduce(0) { $0 + $1.loaded.count }
        let engines: [JSON] = statuses.map { s in
            .object([
                ("engine", .string(s.engine)),
                ("loaded", .array(s.loaded.map(JSON.string))),
                ("skipped", .object(s.skipped.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })),
                ("unavailable", .object(s.unavailable.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })),
            ])
        }
        let uptime = ContinuousClock.now - started
        let seconds = Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18
        let body: JSON = .object([
            ("status", .string(loaded > 0 ? "ok" : "no_pairs")),
            ("pairs", .int(loaded)),
            ("engines", .array(engines)),
            ("uptimeSeconds", .double((seconds * 1000).rounded() / 1000)),
        ])
        return EndpointResult(response: jsonResponse(body, status: loaded > 0 ? 200 : 503, style: JSON.Style(pretty: true)))
    }
}
