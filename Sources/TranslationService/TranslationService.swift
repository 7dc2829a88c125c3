import Synchronization
import TranslationCore

/// One translated input.
public struct TranslationResult: Sendable, Equatable {
    /// The input, as given.
    public var sourceText: String
    /// The translation.
    public var translatedText: String
    /// The source language: the one given, or the one detected (see ``SourceChoice``); nil when
    /// the source was left to detection and the text has no language in it (digits, symbols,
    /// emoji, a URL): such a text comes back unchanged, and protocols report it as undetermined.
    public var source: LanguageCode?
    /// The target language, as requested.
    public var target: LanguageCode
    /// The detection, when the source was not given.
    public var detection: Detection?
    /// The path taken; nil when nothing needed translating (empty text, or source equals target).
    public var route: Route?
}

/// The service every transport calls: routes each request to an engine (directly or through
/// pivots), detects languages when the source is not given, and keeps batches in order.
///
/// Engines and the detector are injected; the service never imports an engine module.
///
/// Availability: routes go only over the pairs the engines report working (``TranslationEngine/
/// pairs()``). A pair can stop working while the service runs (its probe fails on first use):
/// the engine then refuses it, the service reads the engines' pairs again and routes around it.
public final class TranslationService: Sendable {
    /// Limits and preferences. Each field documents its default.
    public struct Configuration: Sendable {
        /// Most texts in one call. Default: 1024.
        public var maxTextsPerRequest: Int = 1024
        /// Pivot through other languages when no direct pair exists. Default: true.
        public var allowPivot: Bool = true
        /// Most engine steps in one route, when pivoting (2 is one pivot). Each step costs time
        /// and quality, so longer chains are not offered. Default: 4.
        public var maxSteps: Int = 4
        /// Bytes of translated segments kept, so that a segment seen again is not translated
        /// again (``TranslationCache``); 0 keeps none. Default: 0 (`glossa` sets 64 MiB,
        /// `GLOSSA_TRANSLATION_CACHE_MB`).
        public var cacheBytes: Int = 0

        /// The defaults.
        public init() {}
    }

    let engines: [any TranslationEngine]
    private let detector: any LanguageDetector
    let configuration: Configuration
    /// The router over the pairs that work now, and the listing built from it on first use.
    let state: Mutex<RoutingState>
    /// Held while the listing is built, so it is built once (see ``table()``).
    let tableBuilder = Mutex(())
    /// How many listings were built so far: one per change of the working pairs (tests check it).
    let tableBuilds = Atomic<Int>(0)
    /// Segments already translated, by engine step (off when `configuration.cacheBytes` is 0).
    let cache: TranslationCache
    /// When ``refreshIfDue()`` last read the engines' pairs (uptime nanoseconds; 0: at start).
    let lastPairsCheck = Atomic<UInt64>(0)
    /// How far ``probe(progress:)`` has got, by engine name (see ``checking``).
    let probeProgress = Mutex<[String: PairCheckProgress]>([:])

    /// Makes a service over `engines` (earlier engines win when two serve the same pair) and
    /// `detector`. Reads each engine's working pairs now, and again whenever one stops working.
    public init(engines: [any TranslationEngine], detector: any LanguageDetector,
                configuration: Configuration = Configuration()) async {
        self.engines = engines
        self.detector = detector
        self.configuration = configuration
        self.cache = TranslationCache(capacity: configuration.cacheBytes)
        let served = await Self.servedPairs(of: engines)
        self.state = Mutex(RoutingState(router: Self.router(served, engines: engines, configuration: configuration)))
    }

    /// The route for one direction, or nil (also nil when `source` text is already in `target`'s
    /// language and no pair converts it, since then nothing is translated).
    public func route(from source: LanguageCode, to target: LanguageCode) -> Route? {
        let direction = LanguagePair(source: source, target: target)
        let (router, generation, known) = state.withLock { ($0.router, $0.generation, $0.routes[direction]) }
        if let known { return known }
        let route = source.language == target.language
            ? RouteTable.sameLanguageRoute(from: source, to: target, router: router)
            : router.route(from: source, to: target)
        state.withLock { state in
            // A route found over pairs that changed meanwhile is not remembered for the new ones.
            guard state.generation == generation else { return }
            if state.routes.count >= RoutingState.routeMemoCapacity { state.routes.removeAll(keepingCapacity: true) }
            state.routes[direction] = .some(route)
        }
        return route
    }

    /// Detects each text's language; exactly one result per input, in order. For `.html` the
    /// detector reads the text a reader sees (``MarkupText``), as translation does.
    public func detect(_ texts: [String], format: TextFormat = .text) async -> [Detection] {
        await detector.detect(format == .text ? texts : texts.map { MarkupText.content(of: $0, format: format) })
    }

    /// Translates `texts` into `target`, one result per input in input order.
    ///
    /// With `source` nil each text's language is detected first, from the text a reader sees
    /// (``MarkupText``: no tags when `options.format` is HTML), and texts are grouped by it, so a
    /// batch may mix languages (``SourceChoice`` says how the language is chosen). Text already
    /// in the target language comes back unchanged; so does text with no language in it
    /// (`source` nil in its result), and, in a request where other texts are translated, text in
    /// a language detected reliably that no installed pair translates (its source says which).
    /// A non-empty text never comes back as an empty translation.
    /// - Throws: ``TranslationError`` (no route, naming the targets the source reaches, when no
    ///   text of the request can be translated; limits; engine failures).
    public func translate(_ texts: [String], from source: LanguageCode?, to target: LanguageCode,
                          options: TranslationOptions = TranslationOptions()) async throws -> [TranslationResult] {
        guard texts.count <= configuration.maxTextsPerRequest else {
            throw TranslationError(.limitExceeded, "Too many texts: \(texts.count) given, at most \(configuration.maxTextsPerRequest) per request.")
        }
        var results = texts.map { text in
            TranslationResult(sourceText: text, translatedText: text, source: source, target: target, detection: nil, route: nil)
        }
        if source == nil {
            let found = await detect(texts, format: options.format)
            for (i, detection) in found.enumerated() {
                let chosen = SourceChoice.choose(detection) { self.translates(from: $0, to: target) }
                results[i].detection = chosen
                results[i].source = chosen.language
            }
        }
        // Group the indices that need an engine by source language, so each group is one batch.
        var groups: [LanguageCode: [Int]] = [:]
        var unserved: [Int] = []
        for (i, text) in texts.enumerated() where !text.isEmpty {
            guard let s = results[i].source else { continue }
            let routed = route(from: s, to: target) != nil
            // Text already in the target language stays as it is, unless a pair converts it.
            if s.language == target.language && !routed { continue }
            if source == nil && !routed {
                unserved.append(i)
                continue
            }
            groups[s, default: []].append(i)
        }
        // A request in a language nothing here translates is refused, saying what is there; in a
        // request that is otherwise translated, such a text comes back as it is, with its source.
        if groups.isEmpty, let first = unserved.first, let s = results[first].source {
            throw refusal(from: s, to: target)
        }
        for (groupSource, indices) in groups.sorted(by: { $0.key < $1.key }) {
            let (route, batch) = try await translate(indices.map { texts[$0] }, from: groupSource, to: target, options: options)
            for (k, i) in indices.enumerated() {
                results[i].translatedText = SourceChoice.lostEverything(input: texts[i], output: batch[k], format: options.format)
                    ? texts[i] : batch[k]
                results[i].route = route
            }
        }
        return results
    }

    /// Whether text in `language` can be translated into `target` here, or needs no
    /// translation (it is in the target's language).
    func translates(from language: LanguageCode, to target: LanguageCode) -> Bool {
        language.language == target.language || route(from: language, to: target) != nil
    }

    /// One group of texts along its route. When an engine refuses a step because the pair stopped
    /// working (its probe failed just now), the pairs are read again and the group goes once more
    /// along the new best route, or is refused with what the source still reaches.
    private func translate(_ texts: [String], from source: LanguageCode, to target: LanguageCode,
                           options: TranslationOptions) async throws -> (Route, [String]) {
        var rerouted = false
        while true {
            guard let route = route(from: source, to: target) else { throw refusal(from: source, to: target) }
            do {
                var batch = texts
                for (index, step) in route.steps.enumerated() {
                    let engine = engines[step.engineIndex]
                    let stepOptions = Self.options(options, forStep: index, of: route.steps.count, from: step.pair.source)
                    batch = try await translateStep(batch, engine: engine, step: step, options: stepOptions)
                    guard batch.count == texts.count else {
                        throw TranslationError(.engineFailure, "Engine \(engine.name) returned \(batch.count) results for \(texts.count) texts.")
                    }
                }
                return (route, batch)
            } catch let error as TranslationError where error.kind == .unsupportedPair && !rerouted {
                rerouted = true
                guard await refresh() else { throw error }
            }
        }
    }

    /// The options for step `index` of a route of `count` steps, whose source is `source`.
    ///
    /// Only the last step may mark unknown words: an earlier step's `*word` would be the next
    /// step's input, which that engine then reads as a word of its own (it comes back as
    /// `**word`, or mistranslated), so marks would say nothing true about the text the user
    /// gave. A word unknown to an earlier step passes through it unchanged and unmarked, and the
    /// last step marks it if it cannot read it either.
    ///
    /// A glossary applies to the first step, which puts each target term in place; every later
    /// step gets a glossary that keeps those target terms as they are (``Glossary/keepingTargets(from:)``),
    /// so a pivot does not translate them again.
    static func options(_ options: TranslationOptions, forStep index: Int, of count: Int, from source: LanguageCode) -> TranslationOptions {
        var step = options
        if index < count - 1 { step.markUnknownWords = false }
        if index > 0, let glossary = options.glossary { step.glossary = glossary.keepingTargets(from: source) }
        return step
    }

    /// Each engine's loaded pairs, what it skipped and what does not work, for `/health`.
    public func status() async -> [EngineStatus] {
        var out: [EngineStatus] = []
        for engine in engines {
            if let reporting = engine as? any EngineStatusReporting {
                out.append(await reporting.status())
            } else {
                let unavailable = await engine.unavailablePairs()
                out.append(EngineStatus(engine: engine.name, loaded: await engine.pairs().map(\.description), skipped: [:],
                                        unavailable: Dictionary(uniqueKeysWithValues: unavailable.map { ($0.key.description, $0.value) })))
            }
        }
        return out
    }

    /// Stops every engine.
    public func shutdown() async {
        for engine in engines { await engine.shutdown() }
    }
}
