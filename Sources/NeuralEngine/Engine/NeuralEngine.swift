import Foundation
import NeuralCompute
import TranslationCore

/// The neural engine: installed Argos Translate packages (CTranslate2 models) run in Swift.
///
/// Pairs come from each package's `from_code`/`to_code` (``ModelCatalog``: listed once, again
/// when the models folder changes). Models load on first use (on a loader thread) and stay
/// loaded; texts are cut into sentences and translated on the engine's own threads
/// (``BatchingPool``), where sentences of concurrent requests share batches.
public final class NeuralEngine: TranslationEngine, EngineStatusReporting {
    /// Engine settings; each field documents its default.
    public struct Configuration: Sendable {
        /// Worker threads, each translating one batch at a time (CTranslate2's
        /// `inter_threads`). Default 1.
        public var workers: Int = 1
        /// Threads one batch's matrix products are split over (CTranslate2's `intra_threads`),
        /// set once per worker when the engine starts. Default 1. (OpenBLAS, used only with
        /// GLOSSA_FLOAT_GEMM=openblas, takes it as its process-wide setting, also set once.)
        public var threads: Int = 1
        /// Merge the sentences of concurrent requests into shared batches. Off: each request
        /// is one batch of its own sentences. Default true.
        public var batching = true
        /// Padded tokens (sentences × longest) in one batch. Default 4096.
        public var maxBatchTokens = 4096
        /// Sentences in one batch. Default 32.
        public var maxBatchSentences = 32
        /// Longest wait, in seconds, for a batch to fill. Default 0.005.
        public var maxBatchWait: Double = 0.005
        /// Sentences that may wait for a worker; beyond it requests are refused with
        /// `overloaded` (HTTP 503 in every protocol). Default 4096.
        public var maxQueuedSentences = 4096
        /// Decoding defaults for requests that leave an option unset: beam 4, length penalty 1,
        /// at most 256 tokens, no repeated 4-grams (the "word salad" guard).
        public var defaults = DecodingOptions(beamSize: 4, lengthPenalty: 1, maxDecodingLength: 256,
                                              noRepeatNgramSize: 4, returnScores: false)
        /// Seconds a loaded model may go unused before its memory is given back (it loads
        /// again on its next use); nil keeps every model loaded. Default 600.
        public var idleUnloadSeconds: Double? = 600
        /// The compute backend models are prepared for and run on. Default: this CPU's
        /// (`CPUBackend.default`: AVX-512 VNNI or AVX2 kernels as the CPU allows, with
        /// GLOSSA_INT8_KERNEL and GLOSSA_FLOAT_GEMM applied).
        public var backend: any ComputeBackend = CPUBackend.default
        /// Settings with every default.
        public init() {}
    }

    /// The engine's name in routes, `glossa pairs` and `/health`.
    public let name = "neural"
    private let catalog: ModelCatalog
    private let configuration: Configuration
    /// Loads models off the cooperative pool (one thread: loads are rare and memory-heavy).
    private let loader: WorkerPool
    private let batcher: BatchingPool
    private let cache = LoadedModels()
    /// Gives back models left unused for ``Configuration/idleUnloadSeconds``.
    private let sweeper: Task<Void, Never>?

    /// An engine over the packages installed in `store`, and those of `alsoReading` (folders
    /// another program installed packages into, such as argos-translate's, read in place and
    /// never changed; a pair in `store` wins).
    public init(store: ModelStore, alsoReading: [ModelStore] = [], configuration: Configuration = Configuration()) {
        catalog = ModelCatalog(stores: [store] + alsoReading)
        self.configuration = configuration
        if let idle = configuration.idleUnloadSeconds, idle > 0 {
            // Why a loop of its own: an idle model must be let go even when no request comes.
            sweeper = Task { [cache] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(max(0.2, idle / 4)))
                    if await cache.unload(idleFor: idle) {
                        // The weights were allocated in many large pieces that malloc keeps for
                        // reuse; hand the freed pages back so the memory really goes.
                        try? await Task.sleep(for: .milliseconds(200))
                        FreedMemory.giveBack()
                    }
                }
            }
        } else {
            sweeper = nil
        }
        // The one place the engine sets its backend library's threads (OpenBLAS's count is
        // process-wide): before any worker starts.
        configuration.backend.setLibraryThreads(configuration.threads)
        loader = WorkerPool(count: 1)
        var settings = BatchingPool.Settings()
        settings.batching = configuration.batching
        settings.maxBatchTokens = max(1, configuration.maxBatchTokens)
        settings.maxBatchSentences = max(1, configuration.maxBatchSentences)
        settings.maxWait = max(0, configuration.maxBatchWait)
        settings.maxQueuedSentences = max(1, configuration.maxQueuedSentences)
        batcher = BatchingPool(workers: configuration.workers, threads: configuration.threads, settings: settings)
    }

    /// Installed directions, one per valid package (first package wins for a duplicate pair).
    public func pairs() async -> [LanguagePair] {
        catalog.current().byPair.keys.sorted()
    }

    /// Reads the models folder again now; call after installing or removing a package through
    /// a ``ModelStore`` in this process (changes made elsewhere are noticed by themselves).
    public func refreshModels() {
        catalog.refresh()
    }

    /// The installed packages as loaded pairs, and unusable packages with the reason.
    public func status() async -> EngineStatus {
        let snapshot = catalog.current()
        let loaded = snapshot.byPair.keys.map { "\($0.source.bcp47)-\($0.target.bcp47)" }
        let keys = await cache.keysInMemory()
        let inMemory = snapshot.byPair.filter { keys.contains(snapshot.loadKeys[$0.value.directory] ?? $0.value.directory.path) }
            .keys.map { "\($0.source.bcp47)-\($0.target.bcp47)" }
        return EngineStatus(engine: name, loaded: loaded.sorted(), skipped: snapshot.skipped, inMemory: inMemory.sorted())
    }

    /// Translates each text with the package serving `pair` (loaded on first use), sentence by
    /// sentence on the engine's worker threads; unset options take ``Configuration/defaults``.
    /// The threads are the engine's (``Configuration/threads``): a request's `threads` is
    /// checked but does not change a running engine (it would race with other requests).
    /// - Throws: ``TranslationError``; `overloaded` when too many sentences wait.
    ///
    /// HTML, and a text with placeholders or glossary terms, is cut at them (``SegmentedText``):
    /// the model translates the text between, each stretch on its own, and markup, placeholders
    /// and target terms stand between them unchanged. A model cannot be told to copy a span, and a placeholder
    /// it has never seen may come back moved, altered or dropped; cutting keeps every span
    /// exactly, at the cost of the context across it.
    public func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        if texts.isEmpty { return [] }
        // HTML always goes by segments: its markup is kept, and only text nodes reach the model.
        let segmented = options.format == .text ? texts.map { SegmentedText($0, glossary: options.glossary) }
            : texts.map { SegmentedText(html: $0, glossary: options.glossary, markup: options.markup) }
        if options.format == .html || segmented.contains(where: \.keepsAnything) {
            var plain = options
            plain.glossary = nil
            plain.format = .text
            let sources = segmented.flatMap(\.sources)
            var translated = try await translate(sources, pair: pair, options: plain)[...]
            return segmented.map { text in
                let count = text.sources.count
                defer { translated = translated.dropFirst(count) }
                return text.assemble(Array(translated.prefix(count)))
            }
        }
        let snapshot = catalog.current()
        let models = snapshot.byPair
        guard let model = models[pair] ?? models.first(where: { $0.key.source.base == pair.source.base && $0.key.target.base == pair.target.base })?.value else {
            throw TranslationError.unsupportedPair(pair, available: Array(models.keys))
        }
        let decoding = try decodingOptions(options)
        if let t = options.threads, t < 1 { throw TranslationError.invalidArgument("threads", given: "\(t)", accepted: "an integer ≥ 1") }
        let key = snapshot.loadKeys[model.directory] ?? model.directory.path
        let loaded = try await cache.model(for: model, key: key, current: Set(snapshot.loadKeys.values), loader: loader,
                                              backend: configuration.backend)
        let prepared = try loaded.prepare(texts, options: decoding)
        let targets = try await batcher.translate(prepared.sources, translator: loaded.translator, options: decoding)
        return try loaded.assemble(prepared, targets: targets)
    }

    /// Stops the worker threads; the engine is unusable afterwards.
    public func shutdown() async {
        sweeper?.cancel()
        batcher.shutdown()
        loader.shutdown()
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

    static func pair(of model: InstalledModel) -> LanguagePair? {
        guard let s = try? LanguageCode(parsing: model.metadata.fromCode),
              let t = try? LanguageCode(parsing: model.metadata.toCode) else { return nil }
        return LanguagePair(source: s, target: t)
    }
}

/// Models loaded so far, by package identity (``ModelCatalog/Snapshot/loadKeys``); each loads
/// once even under concurrent requests, and models of removed or replaced packages are let go.
actor LoadedModels {
    private var tasks: [String: Task<LoadedPackage, Error>] = [:]
    /// When each model was last asked for.
    private var lastUse: [String: ContinuousClock.Instant] = [:]

    func model(for installed: InstalledModel, key: String, current: Set<String>, loader: WorkerPool,
               backend: any ComputeBackend) async throws -> LoadedPackage {
        // Forget packages that are gone (their memory is freed once no batch uses them).
        for old in tasks.keys where !current.contains(old) && old != key { tasks[old] = nil }
        lastUse[key] = .now
        if let task = tasks[key] { return try await task.value }
        let directory = installed.directory
        let task = Task { try await loader.run { _ in try LoadedPackage(directory: directory, backend: backend) } }
        tasks[key] = task
        do {
            return try await task.value
        } catch {
            tasks[key] = nil   // let a later request retry (e.g. after a reinstall)
            throw error
        }
    }

    /// Forgets the models not asked for in `seconds`. A batch that is translating holds its
    /// own reference, so nothing in flight is dropped: the memory goes when the last one ends.
    /// Returns whether any model was let go.
    @discardableResult
    func unload(idleFor seconds: Double) -> Bool {
        let limit = ContinuousClock.now - .seconds(seconds)
        var any = false
        for (key, used) in lastUse where used < limit {
            tasks[key] = nil
            lastUse[key] = nil
            any = true
        }
        return any
    }

    /// The models in memory (loaded or loading), by key.
    func keysInMemory() -> Set<String> { Set(tasks.keys) }
}

/// Gives freed heap pages back to the system: glibc's `malloc_trim`, looked up at run time (it is
/// a GNU extension that Swift's Glibc module does not declare); nothing where it is missing.
enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    static func giveBack() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
