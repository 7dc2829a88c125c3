import AccessControl
import Foundation

/// How `glossa keys` prints keys and usage: aligned columns for people, JSON with `--json`.
/// The key itself appears only in `create`'s answer (``Record/key``).
enum KeysOutput {
    /// A key's record as JSON.
    struct Record: Encodable {
        var id: String
        var name: String
        var hint: String
        var created: String
        var revoked: String?
        var charactersPerMonth: Int?
        var requestsPerMinute: Int?
        /// Only in `create`'s answer.
        var key: String?
        var usage: Usage?

        init(_ key: APIKey, secret: String? = nil, usage: KeyUsage? = nil) {
            id = key.id
            name = key.name
            hint = key.hint
            created = timestamp(key.created)
            revoked = key.revoked.map(timestamp)
            charactersPerMonth = key.charactersPerMonth
            requestsPerMinute = key.requestsPerMinute
            self.key = secret
            self.usage = usage.map(Usage.init)
        }

        func encode(to encoder: any Encoder) throws {
            // nil limits are written as null (no limit), not left out.
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(name, forKey: .name)
            try c.encode(hint, forKey: .hint)
            try c.encode(created, forKey: .created)
            try c.encode(revoked, forKey: .revoked)
            try c.encode(charactersPerMonth, forKey: .charactersPerMonth)
            try c.encode(requestsPerMinute, forKey: .requestsPerMinute)
            try c.encodeIfPresent(key, forKey: .key)
            try c.encodeIfPresent(usage, forKey: .usage)
        }

        enum CodingKeys: String, CodingKey {
            case id, name, hint, created, revoked, charactersPerMonth, requestsPerMinute, key, usage
        }
    }

    /// One period's usage as JSON.
    struct Usage: Encodable {
        var period: String
        var characters: Int
        var requests: Int
        var remaining: Int?

        init(_ usage: KeyUsage) {
            period = usage.period.name
            characters = usage.characters
            requests = usage.requests
            remaining = usage.remaining
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(period, forKey: .period)
            try c.encode(characters, forKey: .characters)
            try c.encode(requests, forKey: .requests)
            try c.encode(remaining, forKey: .remaining)
        }

        enum CodingKeys: String, CodingKey { case period, characters, requests, remaining }
    }

    /// Every key with this month's usage.
    static func list(_ usages: [KeyUsage], json: Bool) {
        if json {
            Console.json(usages.map { Record($0.key, usage: $0) })
            return
        }
        guard !usages.isEmpty else {
            Console.out("No keys yet: `glossa keys create --name NAME` makes one.")
            return
        }
        table(["ID", "NAME", "KEY", "CREATED", "STATUS", "CHARS/MONTH", "REQ/MIN", "USED " + usages[0].period.name],
              usages.map { u in
                  [u.key.id, u.key.name, u.key.hint + "…", timestamp(u.key.created), u.key.revoked.map { "revoked " + timestamp($0) } ?? "active",
                   u.key.charactersPerMonth.map(String.init) ?? "-", u.key.requestsPerMinute.map(String.init) ?? "-", String(u.characters)]
              })
    }

    /// Usage in one period, of one key or all.
    static func usage(_ usages: [KeyUsage], json: Bool, single: Bool) {
        if json {
            if single, let one = usages.first { Console.json(Record(one.key, usage: one)) } else { Console.json(usages.map { Record($0.key, usage: $0) }) }
            return
        }
        guard let period = usages.first?.period else {
            Console.out("No keys yet.")
            return
        }
        table(["ID", "NAME", "PERIOD", "CHARACTERS", "LIMIT", "REMAINING", "REQUESTS"], usages.map { u in
            [u.key.id, u.key.name, period.name, String(u.characters), u.key.charactersPerMonth.map(String.init) ?? "-",
             u.remaining.map(String.init) ?? "-", String(u.requests)]
        })
    }

    /// `k_… "alice"`.
    static func label(_ key: APIKey) -> String { key.name.isEmpty ? key.id : "\(key.id) \"\(key.name)\"" }

    /// `1000000 characters/month, 60 requests/minute`.
    static func limits(_ key: APIKey) -> String {
        let characters = key.charactersPerMonth.map { "\($0) characters/month" } ?? "no character limit"
        let requests = key.requestsPerMinute.map { "\($0) requests/minute" } ?? "the server's request rate"
        return "\(characters), \(requests)"
    }

    private static func table(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        for row in all {
            Console.out(row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  "))
        }
    }
}

/// RFC 3339 in UTC (`2025-12-01T09:30:00Z`).
func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
}
