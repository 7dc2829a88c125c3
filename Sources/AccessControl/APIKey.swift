import Foundation

/// A key's record as the store keeps it: everything but the key itself, which exists only in
/// the caller's hands (the store has its SHA-256).
public struct APIKey: Sendable, Equatable {
    /// The record's identifier (`k_…`): names the key in lists and commands, reveals nothing.
    public var id: String
    /// The operator's label (who or what the key is for); may be empty.
    public var name: String
    /// The key's first characters (`glossa_Ab3d`), to tell keys apart.
    public var hint: String
    /// When it was made.
    public var created: Date
    /// When it was revoked; nil while it is valid.
    public var revoked: Date?
    /// Characters it may have translated per calendar month (UTC); nil: no limit.
    public var charactersPerMonth: Int?
    /// Requests it may make per minute; nil: the server's default for keys.
    public var requestsPerMinute: Int?

    /// Whether it is still valid.
    public var isActive: Bool { revoked == nil }
}

/// One key's usage in one billing period.
public struct KeyUsage: Sendable, Equatable {
    /// The key.
    public var key: APIKey
    /// The period.
    public var period: BillingPeriod
    /// Characters charged in the period.
    public var characters: Int
    /// Requests charged in the period.
    public var requests: Int

    /// Characters left in the period; nil without a limit.
    public var remaining: Int? { key.charactersPerMonth.map { max(0, $0 - characters) } }
}

/// A calendar month in UTC, the period character quotas count over (as DeepL's monthly quota
/// and Google's billing months do).
public struct BillingPeriod: Sendable, Equatable, CustomStringConvertible {
    /// `2025-12`.
    public let name: String
    /// Its first instant.
    public let start: Date
    /// The first instant of the next period.
    public let end: Date

    /// The month that contains `date`.
    public static func containing(_ date: Date) -> BillingPeriod {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        let start = calendar.date(from: parts)!
        let end = calendar.date(byAdding: .month, value: 1, to: start)!
        return BillingPeriod(name: String(format: "%04d-%02d", parts.year!, parts.month!), start: start, end: end)
    }

    /// The period named `name` (`2025-12`), nil when the name is not a month.
    public static func named(_ name: String) -> BillingPeriod? {
        let parts = name.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
              (1...12).contains(month) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: 1)) else { return nil }
        return containing(date)
    }

    /// Whole seconds from `date` to the end of the period (at least 1): the `Retry-After` of
    /// an exhausted quota.
    public func secondsLeft(from date: Date) -> Int { max(1, Int(end.timeIntervalSince(date).rounded(.up))) }

    public var description: String { name }
}
