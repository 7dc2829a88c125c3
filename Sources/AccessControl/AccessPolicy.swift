/// Whether a protocol checks callers' keys.
public enum KeyMode: String, Sendable, CaseIterable {
    /// Keys are not read: everyone is served (APy, which has no keys; every protocol by default).
    case off
    /// A key, when given, must be valid and is charged; callers without one are served and
    /// rate-limited by address (LibreTranslate's `--api-keys` without `--require-api-key-*`).
    case optional
    /// Every request needs a valid key.
    case required
}

/// What the server asks of callers: per protocol whether keys are checked, and the rate limits.
/// Every field documents its default.
public struct AccessPolicy: Sendable, Equatable {
    /// Key checking by dialect name (`google_v2`, `deepl`, …); a dialect not listed is `.off`.
    /// Default: none listed (no key is checked anywhere).
    public var modes: [String: KeyMode] = [:]
    /// Requests per minute for keys without a limit of their own; nil: no limit. Default: nil.
    public var keyRequestsPerMinute: Int?
    /// Requests per minute from one client address, for callers without a key; nil: no limit.
    /// Default: nil.
    public var addressRequestsPerMinute: Int?
    /// Proxies whose `X-Forwarded-For` names the client. Default: none.
    public var trustedProxies: TrustedProxies = .none

    /// Nothing is checked or limited.
    public init() {}

    /// The mode of the dialect `name`.
    public func mode(for name: String) -> KeyMode { modes[name] ?? .off }

    /// Whether any dialect checks keys (so a key store is needed).
    public var checksKeys: Bool { modes.values.contains { $0 != .off } }

    /// Whether any request can be refused (keys checked, or keyless callers limited).
    public var isActive: Bool { checksKeys || addressRequestsPerMinute != nil }
}
