import Foundation
import SQLDatabase

/// Decides, for one request, whether it is served: its key (when its protocol checks keys), its
/// rate limit (per key, or per client address for callers without one) and its characters
/// against the key's monthly quota, charged before any work is done. Knows nothing of HTTP: the
/// server's middleware hands it what the request carries and renders a ``Refusal`` in the
/// request's own protocol.
public final class AccessController: Sendable {
    /// What is checked.
    public let policy: AccessPolicy
    /// Where keys and usage live; nil when no protocol checks keys.
    public let store: KeyStore?
    private let directory: KeyDirectory?
    /// Charges keys, by allowances while a key is busy (see ``KeyMeter``).
    private let meter: KeyMeter?
    private let limiter: RateLimiter<ContinuousClock>
    private let log: @Sendable (String) -> Void
    private let outages = OutageLog()

    /// A controller for `policy` over `store` (needed when ``AccessPolicy/checksKeys``);
    /// `log` is told when the database goes down and comes back (never a key).
    public init(policy: AccessPolicy, store: KeyStore?, log: @escaping @Sendable (String) -> Void = { _ in }) {
        precondition(store != nil || !policy.checksKeys, "a policy that checks keys needs a key store")
        self.policy = policy
        self.store = store
        directory = store.map(KeyDirectory.init)
        meter = store.map { KeyMeter(store: $0) }
        limiter = RateLimiter(clock: ContinuousClock())
        self.log = log
    }

    /// What a request brings.
    public struct Attempt: Sendable {
        /// Its protocol's dialect name.
        public var dialect: String
        /// The key it carries, where its protocol carries keys; nil when none.
        public var secret: String?
        /// The TCP peer's address.
        public var peer: String?
        /// Its `X-Forwarded-For` values, in order.
        public var forwardedFor: [String]
        /// Characters it would be billed, as its protocol counts them (0: not billed).
        public var characters: @Sendable () -> Int

        /// Makes an attempt.
        public init(dialect: String, secret: String?, peer: String?, forwardedFor: [String] = [],
                    characters: @escaping @Sendable () -> Int) {
            self.dialect = dialect
            self.secret = secret
            self.peer = peer
            self.forwardedFor = forwardedFor
            self.characters = characters
        }
    }

    /// Why a request is refused.
    public enum Refusal: Error, Sendable, Equatable {
        /// Its protocol requires a key and it has none.
        case missingKey
        /// Its key is malformed, unknown or revoked.
        case invalidKey
        /// Over `perMinute` requests per minute; `retryAfter` whole seconds.
        case rateLimited(retryAfter: Int, perMinute: Int, scope: RateLimitScope)
        /// Its characters would pass the key's monthly `limit` (`used` so far); the period ends
        /// in `retryAfter` seconds.
        case quotaExceeded(used: Int, limit: Int, retryAfter: Int)
        /// The database cannot be reached; retry after `retryAfter` seconds.
        case unavailable(retryAfter: Int)
    }

    /// Whose rate limit a request went over.
    public enum RateLimitScope: Sendable, Equatable {
        case key, address
    }

    /// An admitted request: its key, and what it was charged (to be refunded if it fails).
    public struct Admission: Sendable {
        /// The caller's key; nil for callers served without one.
        public let key: APIKey?
        let charge: (characters: Int, period: BillingPeriod, fromAllowance: Bool)?

        /// Characters charged to the key.
        public var characters: Int { charge?.characters ?? 0 }
    }

    /// Admits `attempt`, charging its characters to its key, or says why not.
    public func admit(_ attempt: Attempt) async -> Result<Admission, Refusal> {
        let mode = policy.mode(for: attempt.dialect)
        guard mode != .off, let secret = attempt.secret else {
            if mode == .required { return .failure(.missingKey) }
            if let perMinute = policy.addressRequestsPerMinute,
               let client = policy.trustedProxies.client(peer: attempt.peer, forwardedFor: attempt.forwardedFor),
               let wait = limiter.take("a:\(client)", perMinute: perMinute) {
                return .failure(.rateLimited(retryAfter: Self.seconds(wait), perMinute: perMinute, scope: .address))
            }
            return .success(Admission(key: nil, charge: nil))
        }
        // The shape is checked first: a malformed key costs no lookup.
        guard KeySecret.isWellFormed(secret), let directory, let meter else { return .failure(.invalidKey) }
        let key: APIKey?
        do { key = try await directory.find(secret: secret) } catch { return .failure(unavailable(error)) }
        guard let key, key.isActive else { return .failure(.invalidKey) }
        if let perMinute = key.requestsPerMinute ?? policy.keyRequestsPerMinute, let wait = limiter.take("k:\(key.id)", perMinute: perMinute) {
            return .failure(.rateLimited(retryAfter: Self.seconds(wait), perMinute: perMinute, scope: .key))
        }
        let characters = attempt.characters()
        guard characters > 0 else { return .success(Admission(key: key, charge: nil)) }
        let now = Date()
        let period = BillingPeriod.containing(now)
        do {
            switch try await meter.charge(key, characters: characters, period: period) {
            case .accepted(let fromAllowance):
                recovered()
                return .success(Admission(key: key, charge: (characters, period, fromAllowance)))
            case .exceeded(let used):
                return .failure(.quotaExceeded(used: used, limit: key.charactersPerMonth ?? 0, retryAfter: period.secondsLeft(from: now)))
            }
        } catch {
            return .failure(unavailable(error))
        }
    }

    /// Ends an admitted request: a failed one (nothing translated) gets its charge back.
    public func settle(_ admission: Admission, succeeded: Bool) async {
        guard !succeeded, let key = admission.key, let charge = admission.charge, let meter else { return }
        // Best effort: if the database went down meanwhile, the key stays charged for a request
        // it did not get (never the other way round).
        try? await meter.refund(key, characters: charge.characters, period: charge.period, fromAllowance: charge.fromAllowance)
    }

    /// `secret`'s usage this period: nil when there is no such (active) key.
    /// - Throws: ``DatabaseError``; ``AccessConfigurationError`` when no store is configured.
    public func usage(secret: String) async throws -> KeyUsage? {
        guard let store else { throw AccessConfigurationError("this server does not check API keys") }
        guard KeySecret.isWellFormed(secret), let key = try await store.find(secret: secret), key.isActive else { return nil }
        // What this process spent from an allowance is billed first, so the count is exact here.
        await meter?.report(key: key.id)
        return try await store.usage(of: key, period: .containing(Date()))
    }

    /// Bills what was spent from allowances and gives every unspent reservation back: call it
    /// once the server has stopped serving (a process that dies without it leaves its
    /// reservations billed after ``KeyStore/staleHoldSeconds``).
    public func finish() async {
        await meter?.finish()
    }

    private func unavailable(_ error: any Error) -> Refusal {
        outages.down(String(describing: error), log: log)
        return .unavailable(retryAfter: Int(Database.retryInterval.components.seconds))
    }

    private func recovered() { outages.up(log: log) }

    /// Whole seconds, rounded up (a `Retry-After` of 0 would invite an immediate retry).
    static func seconds(_ duration: Duration) -> Int {
        max(1, Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded(.up)))
    }
}
