import Synchronization

/// Key records by key hash, remembered for ``timeToLive``: most requests are checked without a
/// database round trip, and a key revoked (or created) on any process sharing the database is
/// seen by every process within that time. Unknown keys are remembered too, so a client
/// retrying a wrong key costs one lookup per interval, not one per request.
final class KeyDirectory: Sendable {
    private struct Entry {
        let key: APIKey?
        let fetched: ContinuousClock.Instant
    }

    /// How long a lookup is reused; a revoked key is refused everywhere within this (plus one
    /// request's time).
    static let timeToLive: Duration = .milliseconds(500)
    /// Entries kept before expired ones are swept.
    static let capacity = 10_000

    private let store: KeyStore
    private let entries = Mutex<[String: Entry]>([:])

    init(store: KeyStore) { self.store = store }

    /// The record for the key `secret` (well-formed), nil when there is none.
    /// - Throws: ``DatabaseError`` when it is not remembered and the database cannot answer.
    func find(secret: String) async throws -> APIKey? {
        let hash = KeySecret.hash(secret)
        let now = ContinuousClock.now
        if let entry = entries.withLock({ $0[hash] }), entry.fetched.duration(to: now) < Self.timeToLive {
            return entry.key
        }
        let key = try await store.find(hash: hash)
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { $0.value.fetched.duration(to: now) < Self.timeToLive }
                if entries.count >= Self.capacity { entries = [:] }
            }
            entries[hash] = Entry(key: key, fetched: now)
        }
        return key
    }
}
