import Synchronization
import TranslationCore

/// Translations of identical segments, so that the same text through the same engine step with
/// the same options is translated once (Weblate and documents send the same UI strings and
/// boilerplate again and again).
///
/// Exact, not approximate: the key is everything an engine's output depends on (the engine's
/// position in the service, the step's pair, the options that change output, the text), and the
/// engines are deterministic, so a hit is byte for byte what the engine would give. Only
/// successful outputs are stored. Bounded by bytes: past ``capacity`` the oldest entries go
/// first (insertion order; a hit does not renew an entry, which keeps a lookup a read).
/// Emptied whenever the working pairs change (``TranslationService/routingGeneration``): a pair
/// that left or came back may be another engine's now. Per process: each replica of a cluster
/// has its own.
final class TranslationCache: Sendable {
    /// What an engine step's output depends on.
    struct Key: Hashable, Sendable {
        var engine: Int
        var pair: LanguagePair
        var options: TranslationOptions
        var text: String
    }

    private struct State {
        var entries: [Key: String] = [:]
        /// Keys in insertion order from `head` on (a queue without moving elements).
        var order: [Key] = []
        var head = 0
        var bytes = 0
        var generation = 0
        var hits = 0, misses = 0
    }

    /// Most bytes held; 0 turns the cache off.
    let capacity: Int
    private let state = Mutex(State())

    /// Bytes an entry is charged besides its texts: the key's other fields, the dictionary's
    /// slot and the queue's (an estimate; it keeps many tiny entries from passing the bound).
    static let entryOverhead = 96

    init(capacity: Int) { self.capacity = max(0, capacity) }

    var isEnabled: Bool { capacity > 0 }

    static func cost(_ key: Key, _ output: String) -> Int { key.text.utf8.count + output.utf8.count + entryOverhead }

    /// The outputs held for `keys` (nil where none); emptied first when the working pairs
    /// changed since the last call (`generation`).
    func lookup(_ keys: [Key], generation: Int) -> [String?] {
        state.withLock { s in
            if s.generation != generation { Self.clear(&s, generation: generation) }
            return keys.map { s.entries[$0] }
        }
    }

    /// Counts segments answered without the engine (`hits`) and sent to it (`misses`).
    func record(hits: Int, misses: Int) {
        state.withLock { s in
            s.hits += hits
            s.misses += misses
        }
    }

    /// Keeps `outputs` for `keys`, evicting the oldest entries past the capacity. An entry larger
    /// than a sixteenth of the capacity is not kept: one huge text must not empty the cache.
    func store(_ keys: [Key], _ outputs: [String], generation: Int) {
        state.withLock { s in
            guard s.generation == generation else { return }
            for (key, output) in zip(keys, outputs) where s.entries[key] == nil {
                let cost = Self.cost(key, output)
                guard cost * 16 <= capacity else { continue }
                s.entries[key] = output
                s.order.append(key)
                s.bytes += cost
                while s.bytes > capacity, s.head < s.order.count {
                    let oldest = s.order[s.head]
                    s.head += 1
                    if let gone = s.entries.removeValue(forKey: oldest) { s.bytes -= Self.cost(oldest, gone) }
                }
                // The queue's consumed front is dropped once it is half the array.
                if s.head > 1024 && s.head * 2 > s.order.count {
                    s.order.removeFirst(s.head)
                    s.head = 0
                }
            }
        }
    }

    /// The counts now.
    var statistics: TranslationCacheStatistics {
        state.withLock { s in
            TranslationCacheStatistics(hits: s.hits, misses: s.misses, entries: s.entries.count, bytes: s.bytes, capacity: capacity)
        }
    }

    private static func clear(_ s: inout State, generation: Int) {
        s.entries.removeAll()
        s.order.removeAll()
        s.head = 0
        s.bytes = 0
        s.generation = generation
    }
}
