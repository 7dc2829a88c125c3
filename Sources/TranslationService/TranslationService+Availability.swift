import Dispatch
import Synchronization
import TranslationCore

/// The router over the pairs that work now, and its listing once built (see
/// ``TranslationService/table()``).
struct RoutingState: Sendable {
    var router: Router
    /// Counts the changes of the working pairs (see ``TranslationService/routingGeneration``).
    var generation = 0
    /// The listing of `router`; nil until built.
    var table: RouteTable?
    /// Routes already worked out over `router`, by direction as asked (nil: none exists).
    /// Why: a route search sorts and compares language codes over the whole graph, which cost
    /// about a sixth of the server's CPU per single-sentence request when done every time; the
    /// answer changes only with the pairs, and a new generation starts with an empty memo.
    var routes: [LanguagePair: Route?] = [:]

    /// Most directions remembered; past it the memo starts again (requests may spell codes in
    /// endless ways, `en-x-a1`, `en-x-a2`, …, so it must not grow without bound).
    static let routeMemoCapacity = 4096
}

/// A pair that an engine found but that does not work on this machine.
public struct UnavailablePair: Sendable, Equatable {
    /// The engine that has it.
    public var engine: String
    /// The direction.
    public var pair: LanguagePair
    /// Why it does not work (`the mode file names …, which does not exist`).
    public var reason: String
}

/// How far one engine's pairs have been checked (``TranslationService/checking``).
public struct PairCheckProgress: Sendable, Equatable {
    /// Pairs checked so far.
    public var checked: Int
    /// Pairs to check in all (those not checked on an earlier run: verdicts are cached).
    public var total: Int
    /// Whether the check is over.
    public var isDone: Bool { checked >= total }
}

extension TranslationService {
    /// The checks of each engine's pairs that have not finished, by engine name: a server that
    /// listens at once reports them (`/glossa/v1/health`) while they go on. Empty when none runs.
    public var checking: [String: PairCheckProgress] { probeProgress.withLock { $0.filter { !$0.value.isDone } } }

    /// Records, as ``checking`` reports it, how many pairs each engine's ``probe(progress:)`` will
    /// check, before it starts. A server calls it before it listens: the probe then runs in the
    /// background, and a request that came before its first step would otherwise read no check
    /// at all (every pair looking checked).
    public func announceProbe() async {
        for engine in engines {
            let total = await engine.pairsToProbe(nil)
            guard total > 0 else { continue }
            let name = engine.name
            probeProgress.withLock { $0[name] = PairCheckProgress(checked: 0, total: total) }
        }
    }

    /// Checks that every engine's pairs really translate (Apertium starts each mode and translates
    /// a probe text), then routes only over the pairs that passed. `progress` gets (checked, total)
    /// per engine. Worth calling before listing: a broken pair is then in no list.
    public func probe(progress: @escaping @Sendable (_ engine: String, _ checked: Int, _ total: Int) -> Void = { _, _, _ in }) async {
        for engine in engines {
            let name = engine.name
            await engine.probe(nil) { checked, total in
                self.probeProgress.withLock { $0[name] = PairCheckProgress(checked: checked, total: total) }
                progress(name, checked, total)
            }
            // A pair found broken leaves the lists now, not after every engine has been checked.
            await refresh()
        }
        // The listing is worked out now, at warm-up, rather than by the first request that
        // lists or is refused; on a thread of its own, since it is seconds of CPU with every
        // Debian pair and must not hold one of the cooperative pool's few threads.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global(qos: .utility).async {
                _ = self.table()
                done.resume()
            }
        }
    }

    /// The listing of the pairs that work now: built once per change of the working pairs
    /// (``routingGeneration``), never per request.
    ///
    /// Why outside the routing lock: building it walks every route, seconds with every Debian
    /// pair in a debug build, and translations (which need only the router) must not wait for
    /// it. `tableBuilder` lets one caller build while the others wait for its result, rather
    /// than each building the same table.
    func table() -> RouteTable {
        let (router, generation, built) = state.withLock { ($0.router, $0.generation, $0.table) }
        if let built { return built }
        return tableBuilder.withLock { _ in
            if let built = state.withLock({ $0.generation == generation ? $0.table : nil }) { return built }
            let table = RouteTable(router: router)
            tableBuilds.add(1, ordering: .relaxed)
            state.withLock { if $0.generation == generation { $0.table = table } }
            return table
        }
    }

    /// Goes up by one whenever the working pairs change (a probe found a broken one), so that a
    /// caller who keeps something derived from the lists knows to derive it again.
    public var routingGeneration: Int { state.withLock { $0.generation } }

    /// The pairs that engines found but that do not work, with the reasons, by engine and pair.
    public func unavailablePairs() async -> [UnavailablePair] {
        var out: [UnavailablePair] = []
        for engine in engines {
            for (pair, reason) in await engine.unavailablePairs() {
                out.append(UnavailablePair(engine: engine.name, pair: pair, reason: reason))
            }
        }
        return out.sorted { ($0.engine, $0.pair) < ($1.engine, $1.pair) }
    }

    /// Reads the engines' working pairs again; true when they changed (the routes are then new).
    @discardableResult
    func refresh() async -> Bool {
        let served = await Self.servedPairs(of: engines)
        // The router is built only for pairs that changed: most reads find the same ones.
        guard state.withLock({ $0.router.served != served }) else { return false }
        let router = Self.router(served, engines: engines, configuration: configuration)
        let changed = state.withLock { state in
            guard state.router.served != served else { return false }
            state = RoutingState(router: router, generation: state.generation + 1)
            return true
        }
        // The new listing is built now, off the request path, so that the next list is ready.
        if changed { DispatchQueue.global(qos: .utility).async { _ = self.table() } }
        return changed
    }

    static func servedPairs(of engines: [any TranslationEngine]) async -> [ServedPair] {
        var served: [ServedPair] = []
        for (index, engine) in engines.enumerated() {
            for pair in await engine.pairs() { served.append(ServedPair(pair: pair, engineIndex: index)) }
        }
        return served
    }

    static func router(_ served: [ServedPair], engines: [any TranslationEngine], configuration: Configuration) -> Router {
        Router(served: served, engineNames: engines.map(\.name), maxSteps: configuration.allowPivot ? configuration.maxSteps : 1)
    }

    /// Reads the engines' working pairs again when ``pairsRecheckNanoseconds`` have passed since
    /// the last read, so that a model installed or removed while the service runs is routed (or
    /// routed around) and listed at once, without a restart. Cheap on every other call: one
    /// atomic read; one caller at a time does the read.
    public func refreshIfDue() async {
        let now = DispatchTime.now().uptimeNanoseconds
        let last = lastPairsCheck.load(ordering: .relaxed)
        guard now &- last >= Self.pairsRecheckNanoseconds,
              lastPairsCheck.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged else { return }
        await refresh()
    }

    /// How often ``refreshIfDue()`` reads the engines' pairs: a second. Apertium's pairs come
    /// from a list it keeps; the neural engine's cost one `stat` of the models folder.
    static let pairsRecheckNanoseconds: UInt64 = 1_000_000_000
}
