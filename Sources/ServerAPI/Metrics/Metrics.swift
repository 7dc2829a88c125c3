import GlossaWire
import Synchronization

/// Request counters and latency histograms per endpoint, in the Prometheus text format.
/// Labels are bounded: endpoint names come from the route table, error kinds from ``APIError/label``.
public final class Metrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        var requests: [String: [Int: Int]] = [:]
        var errors: [String: [String: Int]] = [:]
        var characters: [String: Int] = [:]
        var latency: [String: Histogram] = [:]
    }

    private let state = Mutex(State())

    /// An empty registry.
    public init() {}

    /// Records one finished request.
    func record(endpoint: String, status: Int, seconds: Double, characters: Int, error: String?) {
        state.withLock { s in
            s.requests[endpoint, default: [:]][status, default: 0] += 1
            if let error { s.errors[endpoint, default: [:]][error, default: 0] += 1 }
            if characters > 0 { s.characters[endpoint, default: 0] += characters }
            var h = s.latency[endpoint] ?? Histogram()
            if let i = Metrics.buckets.firstIndex(where: { seconds <= $0 }) { h.counts[i] += 1 }
            h.sum += seconds
            h.count += 1
            s.latency[endpoint] = h
        }
    }

    /// The Prometheus text exposition (format 0.0.4).
    public func exposition() -> String {
        let s = state.withLock { $0 }
        var out = ""
        out += "# HELP glossa_http_requests_total HTTP requests answered, by endpoint and status code.\n"
        out += "# TYPE glossa_http_requests_total counter\n"
        for (endpoint, codes) in s.requests.sorted(by: { $0.key < $1.key }) {
            for (code, n) in codes.sorted(by: { $0.key < $1.key }) {
                out += "glossa_http_requests_total{endpoint=\"\(endpoint)\",code=\"\(code)\"} \(n)\n"
            }
        }
        out += "# HELP glossa_http_errors_total Requests that failed, by endpoint and error kind.\n"
        out += "# TYPE glossa_http_errors_total counter\n"
        for (endpoint, kinds) in s.errors.sorted(by: { $0.key < $1.key }) {
            for (kind, n) in kinds.sorted(by: { $0.key < $1.key }) {
                out += "glossa_http_errors_total{endpoint=\"\(endpoint)\",kind=\"\(kind)\"} \(n)\n"
            }
        }
        out += "# HELP glossa_characters_translated_total Characters billed (code points of the texts to translate or detect) by answered requests, by endpoint.\n"
        out += "# TYPE glossa_characters_translated_total counter\n"
        for (endpoint, n) in s.characters.sorted(by: { $0.key < $1.key }) {
            out += "glossa_characters_translated_total{endpoint=\"\(endpoint)\"} \(n)\n"
        }
        out += "# HELP glossa_http_request_duration_seconds Time from a complete request to its response, by endpoint.\n"
        out += "# TYPE glossa_http_request_duration_seconds histogram\n"
        for (endpoint, h) in s.latency.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (i, bound) in Metrics.buckets.enumerated() {
                cumulative += h.counts[i]
                out += "glossa_http_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"\(JSON.number(bound))\"} \(cumulative)\n"
            }
            out += "glossa_http_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"+Inf\"} \(h.count)\n"
            out += "glossa_http_request_duration_seconds_sum{endpoint=\"\(endpoint)\"} \(h.sum)\n"
            out += "glossa_http_request_duration_seconds_count{endpoint=\"\(endpoint)\"} \(h.count)\n"
        }
        return out
    }
}
