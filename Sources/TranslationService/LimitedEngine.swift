import TranslationCore

/// An engine limited to some languages: only its pairs whose both sides are among them are
/// listed, routed and translated (LibreTranslate's `--load-only`, `LT_LOAD_ONLY`). A language
/// matches by its base code, so `pt` allows `pt-BR`.
public struct LimitedEngine: TranslationEngine, EngineStatusReporting {
    let engine: any TranslationEngine
    let languages: Set<String>

    /// `engine` limited to `languages` (base codes: `en`, `de`).
    public init(_ engine: any TranslationEngine, to languages: Set<String>) {
        self.engine = engine
        self.languages = Set(languages.map { $0.lowercased() })
    }

    public var name: String { engine.name }

    func allows(_ pair: LanguagePair) -> Bool {
        languages.contains(pair.source.language) && languages.contains(pair.target.language)
    }

    public func pairs() async -> [LanguagePair] { await engine.pairs().filter(allows) }

    public func unavailablePairs() async -> [LanguagePair: String] { await engine.unavailablePairs().filter { allows($0.key) } }

    public func probe(_ pairs: [LanguagePair]?, progress: @escaping @Sendable (Int, Int) -> Void) async {
        await engine.probe(await allowed(pairs), progress: progress)
    }

    public func pairsToProbe(_ pairs: [LanguagePair]?) async -> Int {
        await engine.pairsToProbe(await allowed(pairs))
    }

    /// Those of `pairs` this limit allows; every allowed pair when nil (never nil itself, so
    /// the engine never checks a pair outside the limit).
    private func allowed(_ pairs: [LanguagePair]?) async -> [LanguagePair] {
        if let pairs { return pairs.filter(allows) }
        return await self.pairs()
    }

    public func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        guard allows(pair) else { throw TranslationError.unsupportedPair(pair, available: await pairs()) }
        return try await engine.translate(texts, pair: pair, options: options)
    }

    public func shutdown() async { await engine.shutdown() }

    /// The engine's status, with the pairs outside the languages left out of `loaded` and said
    /// to be skipped.
    public func status() async -> EngineStatus {
        guard let reporting = engine as? any EngineStatusReporting else {
            return EngineStatus(engine: name, loaded: await pairs().map(\.description), skipped: [:])
        }
        var status = await reporting.status()
        let limited = languages.sorted().joined(separator: ",")
        for loaded in status.loaded {
            let sides = loaded.split(separator: "-").map { String($0).lowercased() }
            if let s = sides.first, let t = sides.last, !(languages.contains(s) && languages.contains(t)) {
                status.skipped[loaded] = "outside the languages loaded (--load-only \(limited))"
            }
        }
        status.loaded = status.loaded.filter { status.skipped[$0] == nil }
        status.inMemory = status.inMemory?.filter { status.skipped[$0] == nil }
        return status
    }
}
