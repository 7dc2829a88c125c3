import Synchronization
import TranslationCore

/// The router over the pairs that work now, and its listing, made on first use (most calls
/// translate and never list).
struct RoutingState: Sendable {
    var router: Router
    /// Counts the changes of the working pairs (see ``TranslationService/routingGeneration``).
    var generation = 0
    private var cachedTable: RouteTable?

    init(router: Router, generation: Int = 0) {
        self.router = router
        self.generation = generation
    }

    /// The listing of the current router.
    mutating func table() -> RouteTable {
        if let cachedTable { return cachedTable }
        let table = RouteTable(router: router)
        cachedTable = table
        return table
    }
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

extension TranslationService {
    /// Checks that every engine's pairs really translate (Apertium starts each mode and translates
    /// a probe text), then routes only over the pairs that passed. `progress` gets (checked, total)
    /// per engine. Worth calling before listing: a broken pair is then in no list.
    public func probe(progress: @escaping @Sendable (_ engine: String, _ checked: Int, _ total: Int) -> Void = { _, _, _ in }) async {
        for engine in engines {
            let name = engine.name
            await engine.probe(nil) { progress(name, $0, $1) }
        }
        await refresh()
        // The listing is worked out now, at warm-up, rather than by the first request that
        // lists or is refused.
        _ = state.withLock { $0.table() }
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
        let router = Self.router(served, engines: engines, configuration: configuration)
        return state.withLock { state in
            guard state.router.served != served else { return false }
            state = RoutingState(router: router, generation: state.generation + 1)
            return true
        }
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
}
