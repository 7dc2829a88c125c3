import TranslationCore

/// One translated input.
public struct TranslationResult: Sendable, Equatable {
    /// The input, as given.
    public var sourceText: String
    /// The translation.
    public var translatedText: String
    /// The source language: the one given, or the one detected.
    public var source: LanguageCode
    /// The target language, as requested.
    public var target: LanguageCode
    /// The detection, when the source was not given.
    public var detection: Detection?
    /// The path taken; nil when nothing needed translating (empty text, or source equals target).
    public var route: Route?
}

/// The service every transport calls: routes each request to an engine (directly or through a
/// pivot), detects languages when the source is not given, and keeps batches in order.
///
/// Engines and the detector are injected; the service never imports an engine module.
public final class TranslationService: Sendable {
    /// Limits and preferences. Each field documents its default.
    public struct Configuration: Sendable {
        /// Most texts in one call. Default: 1024.
        public var maxTextsPerRequest: Int = 1024
        /// Pivot through another language when no direct pair exists. Default: true.
        public var allowPivot: Bool = true

        /// The defaults.
        public init() {}
    }

    private let engines: [any TranslationEngine]
    private let detector: any LanguageDetector
    private let configuration: Configuration
    private let router: Router

    /// Makes a service over `engines` (earlier engines win when two serve the same pair) and
    /// `detector`. Reads each engine's pairs once: engines list what they have at start-up.
    public init(engines: [any TranslationEngine], detector: any LanguageDetector,
                configuration: Configuration = Configuration()) async {
        self.engines = engines
        self.detector = detector
        self.configuration = configuration
        var served: [ServedPair] = []
        for (index, engine) in engines.enumerated() {
            for pair in await engine.pairs() { served.append(ServedPair(pair: pair, engineIndex: index)) }
        }
        self.router = Router(served: served, engineNames: engines.map(\.name))
    }

    /// Every direction Glossa can translate, direct pairs first, then pivots.
    public func routes() -> [Route] {
        configuration.allowPivot ? router.allRoutes() : router.directRoutes()
    }

    /// Every language that appears as a source or target, base forms and engine variants.
    public func languages() -> [LanguageCode] {
        Array(Set(router.served.flatMap { [$0.pair.source, $0.pair.target] })).sorted()
    }

    /// The route for one direction, or nil.
    public func route(from source: LanguageCode, to target: LanguageCode) -> Route? {
        configuration.allowPivot ? router.route(from: source, to: target) : router.directRoute(from: source, to: target)
    }

    /// Detects each text's language; exactly one result per input, in order.
    public func detect(_ texts: [String]) async -> [Detection] {
        await detector.detect(texts)
    }

    /// Translates `texts` into `target`, one result per input in input order.
    ///
    /// With `source` nil each text's language is detected first and texts are grouped by it, so a
    /// batch may mix languages. Text already in the target language comes back unchanged.
    /// - Throws: ``TranslationError`` (unsupported pair listing what is available, unable to
    ///   identify the language, limits, engine failures).
    public func translate(_ texts: [String], from source: LanguageCode?, to target: LanguageCode,
                          options: TranslationOptions = TranslationOptions()) async throws -> [TranslationResult] {
        guard texts.count <= configuration.maxTextsPerRequest else {
            throw TranslationError(.limitExceeded, "Too many texts: \(texts.count) given, at most \(configuration.maxTextsPerRequest) per request.")
        }
        var detections: [Detection?] = Array(repeating: nil, count: texts.count)
        var sources: [LanguageCode?] = Array(repeating: source, count: texts.count)
        if source == nil {
            let found = await detector.detect(texts)
            for (i, detection) in found.enumerated() {
                detections[i] = detection
                sources[i] = detection.language
            }
        }
        var results = texts.enumerated().map { i, text in
            TranslationResult(sourceText: text, translatedText: text, source: sources[i] ?? target,
                              target: target, detection: detections[i], route: nil)
        }
        // Group the indices that need an engine by source language, so each group is one batch.
        var groups: [LanguageCode: [Int]] = [:]
        for (i, text) in texts.enumerated() where !text.isEmpty {
            guard let s = sources[i] else {
                throw TranslationError(.unableToIdentifyLanguage,
                    "Could not identify the language of text \(i + 1) (\"\(text.prefix(40))\"); give the source language.")
            }
            if s.language == target.language && Router.score(s, for: target) != nil { continue }
            groups[s, default: []].append(i)
        }
        for (groupSource, indices) in groups.sorted(by: { $0.key < $1.key }) {
            guard let route = route(from: groupSource, to: target) else {
                throw unsupported(LanguagePair(source: groupSource, target: target))
            }
            var batch = indices.map { texts[$0] }
            for step in route.steps {
                let engine = engines[step.engineIndex]
                batch = try await engine.translate(batch, pair: step.pair, options: options)
                guard batch.count == indices.count else {
                    throw TranslationError(.engineFailure, "Engine \(engine.name) returned \(batch.count) results for \(indices.count) texts.")
                }
            }
            for (k, i) in indices.enumerated() {
                results[i].translatedText = batch[k]
                results[i].route = route
            }
        }
        return results
    }

    /// Each engine's loaded pairs and what it skipped, for `/health`.
    public func status() async -> [EngineStatus] {
        var out: [EngineStatus] = []
        for engine in engines {
            if let reporting = engine as? any EngineStatusReporting {
                out.append(await reporting.status())
            } else {
                out.append(EngineStatus(engine: engine.name, loaded: await engine.pairs().map(\.description), skipped: [:]))
            }
        }
        return out
    }

    /// Stops every engine.
    public func shutdown() async {
        for engine in engines { await engine.shutdown() }
    }

    /// The error for a pair with no route, naming which side is the problem.
    private func unsupported(_ pair: LanguagePair) -> TranslationError {
        let pairs = router.served.map(\.pair)
        if !pairs.contains(where: { Router.score($0.source, for: pair.source) != nil }) {
            let list = Set(pairs.map(\.source.bcp47)).sorted().joined(separator: ", ")
            return TranslationError(.unsupportedSourceLanguage,
                "No installed pair translates from \(pair.source.displayName()) (\(pair.source.bcp47)). Source languages available: \(list).")
        }
        if !pairs.contains(where: { Router.score($0.target, for: pair.target) != nil }) {
            let list = Set(pairs.map(\.target.bcp47)).sorted().joined(separator: ", ")
            return TranslationError(.unsupportedTargetLanguage,
                "No installed pair translates into \(pair.target.displayName()) (\(pair.target.bcp47)). Target languages available: \(list).")
        }
        return TranslationError.unsupportedPair(pair, available: pairs)
    }
}
