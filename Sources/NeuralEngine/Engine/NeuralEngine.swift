import CBLAS
import Foundation
import TranslationCore

/// The neural engine: installed Argos Translate packages (CTranslate2 models) run in Swift.
///
/// Pairs come from each package's `from_code`/`to_code`. Models load on first use (on a worker
/// thread) and stay loaded; inference runs on the engine's dedicated `WorkerPool`.
public final class NeuralEngine: TranslationEngine, EngineStatusReporting {
    /// Engine settings; each field documents its default.
    public struct Configuration: Sendable {
        /// Worker threads, each translating one batch at a time. Default 1.
        public var workers: Int = 1
        /// Threads one translation's matrix products are split over (CTranslate2's
        /// `intra_threads`); a request's `threads` option overrides it. Default 1. (OpenBLAS,
        /// used only with GLOSSA_FLOAT_GEMM=openblas, takes it as its process-wide setting.)
        public var threads: Int = 1
        /// Decoding defaults for requests that leave an option unset: beam 4, length penalty 1,
        /// at most 256 tokens, no repeated 4-grams (the "word salad" guard).
        public var defaults = DecodingOptions(beamSize: 4, lengthPenalty: 1, maxDecodingLength: 256,
                                              noRepeatNgramSize: 4, returnScores: false)
        /// Settings with every default.
        public init() {}
    }

    /// The engine's name in routes, `glossa pairs` and `/health`.
    public let name = "neural"
    private let store: ModelStore
    private let configuration: Configuration
    private let pool: WorkerPool
    private let cache = LoadedModels()

    /// An engine over the packages installed in `store`.
    public init(store: ModelStore, configuration: Configuration = Configuration()) {
        self.store = store
        self.configuration = configuration
        pool = WorkerPool(count: configuration.workers, blasThreads: configuration.threads)
    }

    /// Installed directions, one per valid package (first package wins for a duplicate pair).
    public func pairs() async -> [LanguagePair] {
        Array(Set(installed().keys)).sorted()
    }

    /// The installed packages as loaded pairs, and unusable packages with the reason.
    public func status() async -> EngineStatus {
        let listing = store.list()
        var skipped = listing.skipped
        var loaded: [String] = []
        for model in listing.models {
            if let pair = Self.pair(of: model) {
                loaded.append("\(pair.source.bcp47)-\(pair.target.bcp47)")
            } else {
                skipped[model.name] = "language codes '\(model.metadata.fromCode)'/'\(model.metadata.toCode)' are not valid"
            }
        }
        return EngineStatus(engine: name, loaded: loaded.sorted(), skipped: skipped)
    }

    /// Translates each text with the package serving `pair` (loaded on first use), on the
    /// engine's worker threads; unset options take ``Configuration/defaults``.
    public func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        if texts.isEmpty { return [] }
        let models = installed()
        guard let model = models[pair] ?? models.first(where: { $0.key.source.base == pair.source.base && $0.key.target.base == pair.target.base })?.value else {
            throw TranslationError.unsupportedPair(pair, available: Array(models.keys))
        }
        let decoding = try decodingOptions(options)
        let loaded = try await cache.model(for: model, pool: pool)
        if let t = options.threads, t < 1 { throw TranslationError.invalidArgument("threads", given: "\(t)", accepted: "an integer ≥ 1") }
        let requested = options.threads
        let threads = requested ?? configuration.threads
        return try await pool.run { workspace in
            if let t = requested { openblas_set_num_threads(Int32(t)) }
            workspace.threads = threads
            return try loaded.translate(texts, options: decoding, workspace: workspace)
        }
    }

    /// Stops the worker threads; the engine is unusable afterwards.
    public func shutdown() async {
        pool.shutdown()
    }

    /// Request options over the engine defaults.
    func decodingOptions(_ o: TranslationOptions) throws -> DecodingOptions {
        var d = configuration.defaults
        if let v = o.beamSize { d.beamSize = v }
        if let v = o.lengthPenalty { d.lengthPenalty = Float(v) }
        if let v = o.maxDecodingLength { d.maxDecodingLength = v }
        if let v = o.noRepeatNgramSize { d.noRepeatNgramSize = v }
        guard d.beamSize >= 1, d.beamSize <= 64 else { throw TranslationError.invalidArgument("beam size", given: "\(d.beamSize)", accepted: "1…64") }
        guard d.maxDecodingLength >= 1 else { throw TranslationError.invalidArgument("maximum decoding length", given: "\(d.maxDecodingLength)", accepted: "an integer ≥ 1") }
        guard d.noRepeatNgramSize >= 0 else { throw TranslationError.invalidArgument("no-repeat n-gram size", given: "\(d.noRepeatNgramSize)", accepted: "0 (off) or more") }
        return d
    }

    private func installed() -> [LanguagePair: InstalledModel] {
        var result: [LanguagePair: InstalledModel] = [:]
        for model in store.list().models {
            if let pair = Self.pair(of: model), result[pair] == nil { result[pair] = model }
        }
        return result
    }

    static func pair(of model: InstalledModel) -> LanguagePair? {
        guard let s = try? LanguageCode(parsing: model.metadata.fromCode),
              let t = try? LanguageCode(parsing: model.metadata.toCode) else { return nil }
        return LanguagePair(source: s, target: t)
    }
}

/// Models loaded so far, by package folder; each loads once even under concurrent requests.
actor LoadedModels {
    private var tasks: [URL: Task<LoadedPackage, Error>] = [:]

    func model(for installed: InstalledModel, pool: WorkerPool) async throws -> LoadedPackage {
        if let task = tasks[installed.directory] { return try await task.value }
        let directory = installed.directory
        let task = Task { try await pool.run { _ in try LoadedPackage(directory: directory) } }
        tasks[directory] = task
        do {
            return try await task.value
        } catch {
            tasks[directory] = nil   // let a later request retry (e.g. after a reinstall)
            throw error
        }
    }
}
