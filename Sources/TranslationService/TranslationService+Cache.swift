import TranslationCore

extension TranslationService {
    /// What the translation cache did so far (all zero when it is off).
    public var cacheStatistics: TranslationCacheStatistics { cache.statistics }

    /// One engine step over `texts`, the segments the cache holds taken from it and only the
    /// others sent to the engine (in one call, in order); what the engine gives is kept.
    func translateStep(_ texts: [String], engine: any TranslationEngine, step: Route.Step,
                       options: TranslationOptions) async throws -> [String] {
        guard cache.isEnabled else { return try await engine.translate(texts, pair: step.pair, options: options) }
        // Threads change how fast, not what: one entry serves every thread count.
        var keyOptions = options
        keyOptions.threads = nil
        let keys = texts.map { TranslationCache.Key(engine: step.engineIndex, pair: step.pair, options: keyOptions, text: $0) }
        let generation = routingGeneration
        var outputs = cache.lookup(keys, generation: generation)
        // A batch that repeats a segment sends it once.
        var missing: [Int] = [], firstOf: [TranslationCache.Key: Int] = [:], sameAs: [Int: Int] = [:]
        for i in texts.indices where outputs[i] == nil {
            if let first = firstOf[keys[i]] { sameAs[i] = first } else { firstOf[keys[i]] = i; missing.append(i) }
        }
        cache.record(hits: texts.count - missing.count, misses: missing.count)
        guard !missing.isEmpty else { return outputs.map { $0! } }
        let fresh = try await engine.translate(missing.map { texts[$0] }, pair: step.pair, options: options)
        guard fresh.count == missing.count else {
            throw TranslationError(.engineFailure, "Engine \(engine.name) returned \(fresh.count) results for \(missing.count) texts.")
        }
        for (k, i) in missing.enumerated() { outputs[i] = fresh[k] }
        for (i, first) in sameAs { outputs[i] = outputs[first] }
        cache.store(missing.map { keys[$0] }, fresh, generation: generation)
        return outputs.map { $0! }
    }
}

/// The translation cache's counts, for `/metrics`.
public struct TranslationCacheStatistics: Sendable, Equatable {
    /// Segments answered without the engine (held, or repeated in the same batch).
    public var hits: Int
    /// Segments the engines were asked for.
    public var misses: Int
    /// Segments held.
    public var entries: Int
    /// Bytes they take (texts and translations in UTF-8, and a fixed overhead each).
    public var bytes: Int
    /// The most bytes held (0: the cache is off).
    public var capacity: Int
}
