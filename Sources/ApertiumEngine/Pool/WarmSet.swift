/// Which pools stay warm, as a pure value: the engine reports each use and gets back the pools to
/// close; tests drive it with made-up instants.
///
/// Every warm pool holds a pipeline of several processes (30–250 MB for a pair), and with
/// all of Debian's pairs installed, keeping every pool that was ever used warm fills the memory
/// of a small machine. So at most `limit` pools stay warm besides the pinned ones (the pairs the
/// operator asked to start at once), least recently used first out, and an unpinned pool unused
/// for `idleTimeout` is closed too. A closed pool starts again on its next request.
struct WarmSet<Key: Hashable, Instant: InstantProtocol> where Instant.Duration == Duration {
    /// Most unpinned pools kept warm; nil keeps every one.
    let limit: Int?
    /// Pools never closed for being idle or least recently used.
    private(set) var pinned: Set<Key>
    /// When each warm unpinned pool was last used.
    private(set) var lastUse: [Key: Instant] = [:]

    init(limit: Int?, pinned: Set<Key>) {
        self.limit = limit.map { max(1, $0) }
        self.pinned = pinned
    }

    /// Records a use of `key` at `now`; returns the pools to close so that at most `limit`
    /// unpinned pools stay warm (the least recently used ones, never `key` itself).
    mutating func use(_ key: Key, at now: Instant) -> [Key] {
        guard !pinned.contains(key) else { return [] }
        lastUse[key] = now
        guard let limit, lastUse.count > limit else { return [] }
        let oldest = lastUse.filter { $0.key != key }.sorted { $0.value < $1.value }.prefix(lastUse.count - limit).map(\.key)
        for evicted in oldest { lastUse[evicted] = nil }
        return oldest
    }

    /// The unpinned pools whose last use is at or before `cutoff`, oldest first: candidates for
    /// closing (the pool itself knows whether a request is still running).
    func unused(since cutoff: Instant) -> [Key] {
        lastUse.filter { $0.value <= cutoff }.sorted { $0.value < $1.value }.map(\.key)
    }

    /// Keeps `key` warm from now on (a pair started at once, on the operator's word).
    mutating func pin(_ key: Key) {
        pinned.insert(key)
        lastUse[key] = nil
    }

    /// The pool was closed.
    mutating func forget(_ key: Key) {
        lastUse[key] = nil
    }
}
