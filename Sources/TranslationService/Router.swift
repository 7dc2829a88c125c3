import TranslationCore

/// Finds routes over the graph of working pairs. Pure: no engines, no concurrency, so every rule
/// below is unit-tested with plain values.
///
/// The graph: a node is a language as an engine writes it (`es`, `pt-BR`, `ca-valencia`); an edge
/// is a served pair, usable from any node whose text the pair's source accepts (see ``score``:
/// `pt-BR` text goes into a `pt` pair). A route is a shortest path that ends in exactly the code
/// asked for (a more general one, `ca` for `ca-pre2017`, only when nothing ends in it), with ties
/// broken, in order, by the pivots' preference (``preferredPivots``, then any other), by how
/// exactly each step's codes match (exact spelling before base form before variant), and by
/// engine order. A direct pair for the direction is always preferred: it is the shortest. Routes have at most ``maxSteps`` steps: each step costs
/// time and quality, so a longer chain is not worth offering.
struct Router: Sendable {
    /// Pivot languages tried in this order before any other.
    static let preferredPivots: [LanguageCode] = ["en", "es", "ca", "fr"]

    let served: [ServedPair]
    let engineNames: [String]
    /// Most steps in a route: 1 is direct only. Default 4 (three pivots).
    let maxSteps: Int

    /// The served pairs by their source's language: only those can take a node's text (see
    /// ``score``), so each search looks at a handful of edges per node, not at all of them.
    private let edgesByLanguage: [String: [ServedPair]]

    init(served: [ServedPair], engineNames: [String], maxSteps: Int = 4) {
        self.served = served
        self.engineNames = engineNames
        self.maxSteps = max(1, maxSteps)
        self.edgesByLanguage = Dictionary(grouping: served, by: \.pair.source.language)
    }

    /// The best route for `source → target`, or nil when no chain of at most ``maxSteps`` pairs
    /// joins them.
    func route(from source: LanguageCode, to target: LanguageCode) -> Route? {
        routes(from: source, to: [target])[target]
    }

    /// The best route from `source` to each of `targets` that can be reached; one search for all.
    func routes(from source: LanguageCode, to targets: [LanguageCode]) -> [LanguageCode: Route] {
        let reached = reach(from: source)
        let wanted = Dictionary(grouping: targets, by: \.language)
        var goals: [LanguageCode: (cost: Cost, steps: [ServedPair])] = [:]
        // Nodes in a fixed order, so that equal costs always resolve the same way.
        for (node, here) in reached.sorted(by: { $0.key < $1.key }) where here.cost.steps < maxSteps {
            for edge in edgesByLanguage[node.language] ?? [] {
                guard let candidates = wanted[edge.pair.target.language],
                      let fit = edge.pair.source.matchScore(for: node) else { continue }
                let cost = here.cost + edgeCost(edge, from: node, fit: fit, isFirst: here.steps.isEmpty)
                for target in candidates {
                    guard let exact = edge.pair.target.matchScore(for: target) else { continue }
                    // Ending in a more general code than asked (`ca` for `ca-pre2017`) is a last
                    // resort, after any route that ends in exactly what was asked.
                    let approximate = exact < 100 && !target.isBase ? 1 : 0
                    let total = cost + Cost(approximate: approximate, steps: 0, pivots: 0, misfit: 100 - exact, engines: 0)
                    if goals[target] == nil || total < goals[target]!.cost { goals[target] = (total, here.steps + [edge]) }
                }
            }
        }
        return goals.mapValues { Route(steps: $0.steps.map(step)) }
    }

    /// The cheapest path from `source` to every node within ``maxSteps`` − 1 steps (the last
    /// step is the one into the target, chosen in ``routes(from:to:)``).
    ///
    /// Dijkstra with a lexicographic cost (steps first, so it is breadth-first): costs add field
    /// by field, so the best path to a node is a prefix of the best path through it, and one visit
    /// per node suffices. No rule forbids a pivot in the source's or the target's language:
    /// `da → nn → nn-x-e` is a real route (Nynorsk into its e-infinitive norm), and a circle is
    /// never the cheapest path.
    private func reach(from source: LanguageCode) -> [LanguageCode: (cost: Cost, steps: [ServedPair])] {
        var best: [LanguageCode: (cost: Cost, steps: [ServedPair])] = [source: (.zero, [])]
        var frontier: [LanguageCode] = [source]
        var settled = Set<LanguageCode>()
        while let node = frontier.min(by: { best[$0]!.cost < best[$1]!.cost }) {
            frontier.removeAll { $0 == node }
            settled.insert(node)
            let here = best[node]!
            guard here.cost.steps < maxSteps - 1 else { continue }
            for edge in edgesByLanguage[node.language] ?? [] {
                guard let fit = edge.pair.source.matchScore(for: node) else { continue }
                let next = edge.pair.target
                guard !settled.contains(next) else { continue }
                let cost = here.cost + edgeCost(edge, from: node, fit: fit, isFirst: here.steps.isEmpty)
                if best[next] == nil || cost < best[next]!.cost {
                    if best[next] == nil { frontier.append(next) }
                    best[next] = (cost, here.steps + [edge])
                }
            }
        }
        return best
    }

    /// One step's cost: the pivot it leaves from (none for the first), how loosely the text's code
    /// fits the pair's source, and the engine's place.
    private func edgeCost(_ edge: ServedPair, from node: LanguageCode, fit: Int, isFirst: Bool) -> Cost {
        Cost(approximate: 0, steps: 1, pivots: isFirst ? 0 : Self.pivotRank(node), misfit: 100 - fit, engines: edge.engineIndex)
    }

    /// The one-step route of every served pair.
    func directRoutes() -> [Route] { served.map { Route(steps: [step($0)]) } }

    private func step(_ s: ServedPair) -> Route.Step {
        Route.Step(pair: s.pair, engine: engineNames[s.engineIndex], engineIndex: s.engineIndex)
    }

    /// A pivot's place in the preference order; languages not listed come after, equally.
    static func pivotRank(_ language: LanguageCode) -> Int {
        preferredPivots.firstIndex(of: language.base) ?? preferredPivots.count
    }

    /// A route's cost, compared field by field in this order: whether it ends in a more general
    /// code than asked, steps, pivots' preference, how loosely codes fit, engine order.
    struct Cost: Comparable {
        var approximate: Int
        var steps: Int
        var pivots: Int
        var misfit: Int
        var engines: Int

        static let zero = Cost(approximate: 0, steps: 0, pivots: 0, misfit: 0, engines: 0)

        static func + (a: Cost, b: Cost) -> Cost {
            Cost(approximate: a.approximate + b.approximate, steps: a.steps + b.steps, pivots: a.pivots + b.pivots,
                 misfit: a.misfit + b.misfit, engines: a.engines + b.engines)
        }

        static func < (a: Cost, b: Cost) -> Bool {
            (a.approximate, a.steps, a.pivots, a.misfit, a.engines) < (b.approximate, b.steps, b.pivots, b.misfit, b.engines)
        }
    }
}
