import TranslationCore

/// How a translation gets from source to target: one direct step, or two through a pivot.
public struct Route: Sendable, Equatable, CustomStringConvertible {
    /// One engine call: a direct pair on a named engine.
    public struct Step: Sendable, Equatable {
        /// The pair as the engine names it (the engine's own variant, e.g. `es→pt-BR`).
        public var pair: LanguagePair
        /// The engine that translates it.
        public var engine: String
        /// Its position in the service's engine list (names need not be unique).
        var engineIndex: Int
    }

    /// The steps in order; one for a direct route, two for a pivot.
    public var steps: [Step]

    /// Where the route starts.
    public var source: LanguageCode { steps[0].pair.source }
    /// Where the route ends.
    public var target: LanguageCode { steps[steps.count - 1].pair.target }
    /// Whether the route goes through a pivot language.
    public var isPivot: Bool { steps.count > 1 }
    /// The languages visited, source first (`[es, en, pt]`).
    public var path: [LanguageCode] { [steps[0].pair.source] + steps.map(\.pair.target) }

    public var description: String { path.map(\.bcp47).joined(separator: " → ") }
}

/// A pair with the engine that serves it, as the router sees them.
struct ServedPair: Sendable {
    var pair: LanguagePair
    var engineIndex: Int
}

/// Finds routes over the pairs the engines serve. Pure: no engines, no concurrency, so every rule
/// below is unit-tested with plain values.
struct Router: Sendable {
    /// Pivot languages tried in this order before any other (the preference).
    static let preferredPivots: [LanguageCode] = ["en", "es", "ca", "fr"]

    let served: [ServedPair]
    let engineNames: [String]

    /// A direct pair for `source → target`, the closest spelling first: exact, then same language
    /// with the pair's base form, then any variant of it. Engines earlier in the list win ties.
    func direct(from source: LanguageCode, to target: LanguageCode) -> ServedPair? {
        var best: (score: Int, pair: ServedPair)?
        for candidate in served {
            guard let s = Self.score(candidate.pair.source, for: source),
                  let t = Self.score(candidate.pair.target, for: target) else { continue }
            let score = s + t
            if best == nil || score > best!.score { best = (score, candidate) }
        }
        return best?.pair
    }

    /// The one-step route for `source → target`, if a pair serves it directly.
    func directRoute(from source: LanguageCode, to target: LanguageCode) -> Route? {
        direct(from: source, to: target).map { Route(steps: [step($0)]) }
    }

    /// The one-step route of every served pair.
    func directRoutes() -> [Route] { served.map { Route(steps: [step($0)]) } }

    /// A direct route or, failing that, one through a pivot (preferred pivots first).
    func route(from source: LanguageCode, to target: LanguageCode) -> Route? {
        if let d = directRoute(from: source, to: target) { return d }
        let others = Set(served.map { $0.pair.target.base }).subtracting(Self.preferredPivots).sorted()
        for pivot in Self.preferredPivots + others where pivot.base != source.base && pivot.base != target.base {
            if let first = direct(from: source, to: pivot), let second = direct(from: first.pair.target, to: target) {
                return Route(steps: [step(first), step(second)])
            }
        }
        return nil
    }

    /// Every direction reachable: each served pair once, plus each pivot-only direction between
    /// base languages.
    func allRoutes() -> [Route] {
        var routes = directRoutes()
        var seen = Set(served.map { LanguagePair(source: $0.pair.source.base, target: $0.pair.target.base) })
        let languages = Set(served.flatMap { [$0.pair.source.base, $0.pair.target.base] }).sorted()
        for source in languages {
            for target in languages where source != target {
                let key = LanguagePair(source: source, target: target)
                guard !seen.contains(key), let r = route(from: source, to: target) else { continue }
                seen.insert(key)
                routes.append(r)
            }
        }
        return routes
    }

    private func step(_ s: ServedPair) -> Route.Step {
        Route.Step(pair: s.pair, engine: engineNames[s.engineIndex], engineIndex: s.engineIndex)
    }

    /// How well an engine's code serves a requested code; nil when it does not serve it at all.
    /// Exact spelling scores highest; a base-form engine code serves any regional request
    /// (`es-MX` → `spa`); a variant engine code serves a base request only as a last resort.
    static func score(_ offered: LanguageCode, for wanted: LanguageCode) -> Int? {
        if offered == wanted { return 100 }
        guard offered.language == wanted.language else { return nil }
        // Chinese scripts are different written languages: never substitute one for the other.
        if let os = offered.script, let ws = wanted.script, os != ws { return nil }
        if offered.isBase { return 50 }
        if offered.region == wanted.region, offered.variants == wanted.variants { return 40 }
        if wanted.isBase { return 10 - offered.variants.count - (offered.region == nil ? 0 : 1) }
        return nil
    }
}
