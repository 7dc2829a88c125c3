import AccessControl
import Foundation
import GlossaWire
import SQLDatabase

/// `GET /glossa/v1/usage`: the caller's key, its limits and its usage this month, from the key
/// store every replica shares.
struct UsageAPI: Sendable {
    let access: AccessController?

    func usage(_ request: RoutedRequest) async throws -> EndpointResult {
        guard let access, access.store != nil else {
            throw APIError(.notFound(path: request.http.path),
                           "This server keeps no usage per key: it checks no API keys (start it with --require-keys or --optional-keys).")
        }
        guard let secret = request.credential?.key else { throw APIError.unauthorized(.missing) }
        let usage: KeyUsage?
        do { usage = try await access.usage(secret: secret) } catch let error as DatabaseError where error.isUnavailable {
            throw APIError.unavailable(retryAfter: 1, message: "The key store is unavailable; retry shortly.")
        }
        guard let usage else { throw APIError.unauthorized(.invalid) }
        return EndpointResult(response: jsonResponse(Self.body(usage), style: JSON.Style(pretty: true)))
    }

    /// `{"key", "period", "characters": {"used", "limit", "remaining"}, "requests": {"count", "perMinute"}}`.
    static func body(_ usage: KeyUsage) -> JSON {
        let key = usage.key
        return .object([
            ("key", .object([("id", .string(key.id)), ("name", .string(key.name)), ("hint", .string(key.hint)),
                             ("created", .string(timestamp(key.created)))])),
            ("period", .object([("name", .string(usage.period.name)), ("start", .string(timestamp(usage.period.start))),
                                ("end", .string(timestamp(usage.period.end)))])),
            ("characters", .object([("used", .int(usage.characters)), ("limit", key.charactersPerMonth.map(JSON.int) ?? .null),
                                    ("remaining", usage.remaining.map(JSON.int) ?? .null)])),
            ("requests", .object([("count", .int(usage.requests)), ("perMinute", key.requestsPerMinute.map(JSON.int) ?? .null)])),
        ])
    }

    /// RFC 3339 in UTC, whole seconds (`2025-12-01T00:00:00Z`).
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
