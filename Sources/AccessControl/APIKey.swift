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
