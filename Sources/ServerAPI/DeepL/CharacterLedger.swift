import Synchronization

/// Characters translated per caller key since the server started, for DeepL's `/v2/usage`.
/// Glossa bills nothing and sets no limit of its own; quotas, when configured, are the quota
/// middleware's to enforce.
final class CharacterLedger: Sendable {
    private let counts = Mutex([String: Int]())

    /// Adds `characters` to `key`'s count (nil: callers without a key).
    func add(_ characters: Int, for key: String?) {
        counts.withLock { $0[key ?? "", default: 0] += characters }
    }

    /// `key`'s count so far.
    func count(for key: String?) -> Int { counts.withLock { $0[key ?? ""] ?? 0 } }
}
