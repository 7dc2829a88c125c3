import TranslationCore

/// Every direction the working pairs serve, worked out once per set of pairs: what the lists show
/// (`glossa pairs`, the web app's picker, each protocol's language and pair lists) and what a
/// refusal names. Built from the same ``Router`` that translation uses, so a listed direction is
/// always one that translates and an unlisted one is always refused.
struct RouteTable: Sendable {
    /// Every listed direction: direct pairs first, in the engines' order, then pivots by source
    /// and target.
    let directions: [Direction]
    /// The targets each listed source reaches, sorted.
    let targetsBySource: [LanguageCode: [LanguageCode]]
    /// Languages something translates from, and into.
    let sources: [LanguageCode]
    let targets: [LanguageCode]
    /// Every language something translates from or into.
    let languages: [LanguageCode]
    /// `languages` and `targets` as lists show them (``TranslationService/listable(_:)``).
    let listedLanguages: [LanguageCode]
    let listedTargets: [LanguageCode]
    /// The route of every direction, each pair of route ends once, direct pairs first.
    let routes: [Route]
    /// The router the table was built from: a route looked up beside the table (a spelling no
    /// list holds) goes over the same pairs.
    let router: Router

    init(router: Router) {
        self.router = router
        let served = router.served.map(\.pair)
        let targetCodes = Self.withBases(served.map(\.target))
        // Any listed language may be a source: text in a target code (`pt-BR`) goes into the
        // pairs of its language (`pt → es`).
        let sourceCodes = Self.withBases(served.map(\.source) + targetCodes)
        var directions: [Direction] = []
        var targetsBySource: [LanguageCode: [LanguageCode]] = [:]
        for source in sourceCodes {
            for (target, route) in Self.routes(from: source, among: targetCodes, router: router) {
                directions.append(Direction(source: source, target: target, route: route))
                targetsBySource[source, default: []].append(target)
            }
        }
        // Direct pairs in the engines' order (as each engine lists them, earlier engines first),
        // then pivots by source and target.
        let order = Dictionary(router.served.enumerated().map { ($0.element.pair, $0.offset) }) { first, _ in first }
        func rank(_ d: Direction) -> Int { d.route.isPivot ? Int.max : order[d.route.steps[0].pair] ?? Int.max }
        self.directions = directions.sorted { (rank($0), $0.source, $0.target) < (rank($1), $1.source, $1.target) }
        self.targetsBySource = targetsBySource.mapValues { $0.sorted() }
        self.sources = targetsBySource.keys.sorted()
        self.targets = Array(Set(targetsBySource.values.joined())).sorted()
        languages = Array(Set(sources + targets)).sorted()
        listedLanguages = TranslationService.listable(languages)
        listedTargets = TranslationService.listable(targets)
        var seen = Set<LanguagePair>()
        routes = self.directions.map(\.route).filter { seen.insert(LanguagePair(source: $0.source, target: $0.target)).inserted }
    }

    /// The routes from `source` to each of `candidates` it reaches. A target in the source's own
    /// language is served only by a direct pair that converts into exactly that code
    /// (`nno → nno_e`); otherwise such text is already in the target language and stays as it is,
    /// so it is no direction of its own (`en → en-US` is not a route through Spanish).
    static func routes(from source: LanguageCode, among candidates: [LanguageCode], router: Router) -> [(LanguageCode, Route)] {
        let others = candidates.filter { $0.language != source.language }
        var found = router.routes(from: source, to: others).map { ($0.key, $0.value) }
        for target in candidates where target.language == source.language && target != source {
            if let route = sameLanguageRoute(from: source, to: target, router: router) { found.append((target, route)) }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The direct pair that turns `source` text into exactly `target`, in the same language.
    static func sameLanguageRoute(from source: LanguageCode, to target: LanguageCode, router: Router) -> Route? {
        let pair = router.served.filter { $0.pair.target == target && $0.pair.source.matchScore(for: source) != nil }
            .max { ($0.pair.source.matchScore(for: source)!, -$0.engineIndex) < ($1.pair.source.matchScore(for: source)!, -$1.engineIndex) }
        return pair.map { Route(steps: [Route.Step(pair: $0.pair, engine: router.engineNames[$0.engineIndex], engineIndex: $0.engineIndex)]) }
    }

    /// The codes given and the base form of each (`pt-BR` also lists `pt`): a base request is
    /// served by a variant pair when there is nothing better, so it is a direction too.
    static func withBases(_ codes: [LanguageCode]) -> [LanguageCode] {
        Array(Set(codes + codes.map(\.base))).sorted()
    }
}
