import Synchronization

/// What APy's `/stats` reports, counted by Glossa as it serves APy's translation endpoints:
/// uses per pair, and the time and characters of each successful translation (the last 1000 and
/// the last hour kept, as APy's `-T 3600` default keeps).
final class APyStats: Sendable {
    struct Timing: Sendable {
        var start: ContinuousClock.Instant
        var end: ContinuousClock.Instant
        var characters: Int
    }

    private struct State {
        var useCount: [String: Int] = [:]
        /// In order of use, for a stable answer.
        var pairOrder: [String] = []
        var timings: [Timing] = []
    }

    let started = ContinuousClock.now
    private let state = Mutex(State())
    /// Most timings kept.
    private let capacity = 10_000

    /// A pair (`eng-spa`) was used.
    func noteUse(_ pair: String) {
        state.withLock { s in
            if s.useCount[pair] == nil { s.pairOrder.append(pair) }
            s.useCount[pair, default: 0] += 1
        }
    }

    /// A translation of `characters` succeeded after starting at `start`.
    func noteTranslation(start: ContinuousClock.Instant, characters: Int) {
        let timing = Timing(start: start, end: .now, characters: characters)
        state.withLock { s in
            s.timings.append(timing)
            let hourAgo = timing.end - .seconds(3600)
            let dropped = s.timings.prefix { $0.start < hourAgo }.count
            if dropped > 0 || s.timings.count > capacity { s.timings.removeFirst(max(dropped, s.timings.count - capacity)) }
        }
    }

    /// Uses per pair, in first-use order.
    var useCount: [(String, Int)] { state.withLock { s in s.pairOrder.map { ($0, s.useCount[$0]!) } } }

    /// The timings APy's `timing[-count:]` gives: the last `count`, all for 0, and for a
    /// negative count all but the first `-count` (Python's slice).
    func timings(last count: Int) -> [Timing] {
        state.withLock { s in
            if count > 0 { return Array(s.timings.suffix(count)) }
            return Array(s.timings.dropFirst(-count))
        }
    }
}
