import Dispatch
import Foundation
import TranslationCore

/// Apertium's rule-based translation, served by warm pipelines of Debian's Apertium tools.
///
/// Each installed mode (found by reading the mode directories) gets a pool of null-flush process
/// chains that are started once and reused for every request; text and HTML are deformatted and
/// reformatted in-process, long input is chunked, and nothing is dropped.
///
/// ```swift
/// let engine = ApertiumEngine(configuration: .init(prewarm: ["eng-spa"]))
/// let out = try await engine.translate(["Good morning"], pair: try LanguagePair(parsing: "eng-spa"),
///                                      options: TranslationOptions())
/// await engine.shutdown()
/// ```
public actor ApertiumEngine: TranslationEngine, EngineStatusReporting {
    /// `apertium`.
    public nonisolated let name = "apertium"
    /// The configuration the engine was made with.
    public nonisolated let configuration: Configuration
    /// Installed modes by pair (fixed at init).
    nonisolated let modes: [LanguagePair: ApertiumMode]
    /// The pairs of ``modes``, sorted once: ``pairs()`` is read on every route refresh.
    private nonisolated let sortedPairs: [LanguagePair]
    /// Mode files that were not loaded, with the reason.
    private nonisolated let skipped: [String: String]
    /// Pools by pair and marking: pipelines that mark unknown words (`-g`) start only when a
    /// request asks for marks.
    private var pools: [PoolKey: PipelinePool<ApertiumPipeline>] = [:]
    var isShutDown = false
    /// Per pool, merges concurrent callers' texts into shared pipeline requests.
    private var coalescers: [PoolKey: RequestCoalescer] = [:]
    /// Analysis modes by name (fixed at init; see ``LanguageModeDiscovery``).
    nonisolated let languageModeTable: [String: LanguageModeDiscovery.Mode]
    /// Analysis modes that cannot run here, with the reason (left out of ``languageModeTable``).
    nonisolated let unavailableLanguageModes: [String: String]
    /// Pools of the analysis modes in use, by mode name.
    var languagePools: [String: PipelinePool<ApertiumPipeline>] = [:]
    /// Which pairs work here (see ``PairAvailability``, ``PairProbe``).
    var availability: PairAvailability
    /// Where probe verdicts are kept between runs.
    nonisolated let probeCache: ProbeCache
    /// Which pools stay warm (see ``WarmSet``, ``Configuration/maxWarmPools``).
    var warmSet: WarmSet<PoolIdentity, ContinuousClock.Instant>
    /// Closes pools left idle for ``Configuration/idleTimeout``; started with the first pool.
    var idleSweeper: Task<Void, Never>?

    /// Which pool serves a request.
    struct PoolKey: Hashable {
        var pair: LanguagePair
        var marksUnknownWords: Bool
    }

    /// Discovers the installed modes; pipelines start on first use, or at once for the pairs in
    /// `configuration.prewarm`.
    public init(configuration: Configuration = Configuration(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configuration = configuration
        let directories = ModeDiscovery.directories(configured: configuration.modeDirectories, environment: environment)
        let found = ModeDiscovery.scan(directories)
        self.modes = found.modes
        self.sortedPairs = found.modes.keys.sorted()
        self.skipped = found.skipped
        let languageModes = LanguageModeDiscovery.usable(LanguageModeDiscovery.discover(pairs: Array(found.modes.values), directories: directories),
                                                         path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        self.languageModeTable = Dictionary(uniqueKeysWithValues: languageModes.usable.map { ($0.info.name, $0) })
        self.unavailableLanguageModes = languageModes.unavailable
        self.probeCache = ProbeCache(file: configuration.probeCache)
        self.warmSet = WarmSet(limit: configuration.maxWarmPools,
                               pinned: Set(configuration.prewarm.map { .translation(PoolKey(pair: $0, marksUnknownWords: false)) }))
        self.availability = PairAvailability(modes: found.modes, cache: probeCache,
                                             path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
                                             alsoRuns: [configuration.resettingTagger?.path].compactMap { $0 })
        if !configuration.prewarm.isEmpty {
            let pairs = configuration.prewarm
            Task { try? await self.prewarm(pairs) }
        }
    }

    /// Every installed direction, from the mode files found at init, less the pairs known not to
    /// work here (``unavailablePairs()``).
    public func pairs() -> [LanguagePair] { sortedPairs.filter { availability.unavailable[$0] == nil } }

    /// The installed modes.
    public nonisolated var installedModes: [ApertiumMode] { modes.values.sorted { $0.pair < $1.pair } }

    /// The modes loaded (by Apertium name), the mode files skipped and the modes that do not
    /// work here (pairs, and analysis modes such as `cat-epo-morph`), with the reasons.
    public func status() -> EngineStatus {
        var skipped = skipped
        if configuration.resettingTagger == nil {
            skipped[ResettingTagger.executableName] = "not found beside the executable (nor GLOSSA_APERTIUM_TAGGER): the stock apertium-tagger runs, and answers may depend on earlier requests"
        }
        let unavailable = availability.unavailable.compactMap { pair, reason in modes[pair].map { ($0.name, reason) } }
        // Analysis modes by their own names (`cat-epo-morph`), beside the pairs (`ca-eo`).
        let analysis = unavailableLanguageModes.map { ($0.key, "analysis mode: \($0.value)") }
        return EngineStatus(engine: name, loaded: pairs().compactMap { modes[$0]?.name }.sorted(), skipped: skipped,
                            unavailable: Dictionary(unavailable + analysis, uniquingKeysWith: { pair, _ in pair }))
    }

    /// Starts the pools of `pairs` and waits until each has a pipeline up (or failed to start).
    /// A pair that turns out not to work is left cold (``unavailablePairs()`` says why).
    /// - Throws: ``TranslationError`` `.unsupportedPair` for a pair that is not installed.
    public func prewarm(_ pairs: [LanguagePair]) async throws {
        var started: [PipelinePool<ApertiumPipeline>] = []
        for pair in pairs {
            let key = PoolKey(pair: pair, marksUnknownWords: false)
            warmSet.pin(.translation(key))
            do {
                started.append(try await pool(for: key))
            } catch where modes[pair] != nil && availability.unavailable[pair] != nil {
                continue
            }
        }
        for pool in started { await pool.waitUntilReady() }
    }

    /// Translates each text through a warm pipeline of `pair`'s mode; HTML keeps its markup.
    /// Empty texts give empty outputs without touching a pipeline.
    /// - Throws: ``TranslationError`` `.unsupportedPair` (listing the installed pairs) when no
    ///   mode serves `pair`; `.engineFailure` or `.timeout` when the pipeline failed twice;
    ///   `.cancelled` after `shutdown()`.
    public nonisolated func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        let coalescer = try await coalescer(for: PoolKey(pair: pair, marksUnknownWords: options.markUnknownWords))
        if texts.allSatisfy(\.isEmpty) { return texts }
        let streams = texts.map { text -> DeformattedText? in
            text.isEmpty ? nil : (options.format == .html ? HTMLDeformatter.deformat(text, glossary: options.glossary, markup: options.markup)
                                  : TextDeformatter.deformat(text, glossary: options.glossary,
                                                             newlinesEndSentences: options.markup.newlinesEndSentences))
        }
        return try await coalescer.translate(streams)
    }

    /// `text` through a warm pipeline of `pair`, answered as the last stage wrote it (APy's
    /// `/translateRaw`): deformatted as HTML unless `deformat` is false (then `text` is already
    /// a stream), never reformatted. The same pools, chunks and marks as ``translate(_:pair:options:)``.
    /// - Throws: as ``translate(_:pair:options:)``; `.invalidArgument` for a `text` sent as a
    ///   stream that no deformatter would write (see ``DeformattedText/rawStream(_:)``).
    public nonisolated func translateRaw(_ text: String, pair: LanguagePair, markUnknownWords: Bool, deformat: Bool) async throws -> String {
        let coalescer = try await coalescer(for: PoolKey(pair: pair, marksUnknownWords: markUnknownWords))
        guard !text.isEmpty else { return "" }
        var stream = deformat ? HTMLDeformatter.deformat(text) : try DeformattedText.rawStream(text)
        stream.reformats = false
        return try await coalescer.translate([stream])[0]
    }

    /// Stops every pipeline of every pair; waiting callers get `.cancelled`.
    public func shutdown() async {
        isShutDown = true
        idleSweeper?.cancel()
        idleSweeper = nil
        for pool in pools.values { await pool.shutdown() }
        for pool in languagePools.values { await pool.shutdown() }
        pools = [:]
        languagePools = [:]
        coalescers = [:]
    }

    /// The processes (bash and its stages) of each live pipeline of `pair`: a debugging aid, and
    /// how tests find a stage to kill.
    public func pipelinePIDs(for pair: LanguagePair) async -> [[Int32]] {
        guard let pool = pools[PoolKey(pair: pair, marksUnknownWords: false)] else { return [] }
        return await pool.processIDs()
    }

    /// The pool of `identity`, if it was ever made.
    func existingPool(_ identity: PoolIdentity) -> PipelinePool<ApertiumPipeline>? {
        switch identity {
        case .translation(let key): pools[key]
        case .analysis(let name): languagePools[name]
        }
    }

    /// Every translation pool with its pair (for pipeline counts).
    func poolsForReporting() -> [(LanguagePair, PipelinePool<ApertiumPipeline>)] {
        pools.map { ($0.key.pair, $0.value) }
    }

    /// The coalescer of `key` (and so its pool), made on first use; each call is a use of the
    /// pool (it stays warm, see ``noteUse(_:)``).
    private func coalescer(for key: PoolKey) async throws -> RequestCoalescer {
        if let coalescer = coalescers[key] {
            noteUse(.translation(key))
            return coalescer
        }
        let translator = ChunkedTranslator(pool: try await pool(for: key), chunkSize: configuration.chunkSize,
                                           maxChunkSize: configuration.maxChunkSize,
                                           spread: configuration.maxPipelines)
        if let coalescer = coalescers[key] { return coalescer }  // made while we were suspended
        let coalescer = RequestCoalescer(translator: translator, maxInFlight: configuration.maxPipelines)
        coalescers[key] = coalescer
        noteUse(.translation(key))
        return coalescer
    }

    /// The pool of `key`, made and started on first use.
    private func pool(for key: PoolKey) async throws -> PipelinePool<ApertiumPipeline> {
        if isShutDown { throw TranslationError(.cancelled, "The Apertium engine has been shut down.") }
        if let pool = pools[key] { return pool }
        guard let mode = modes[key.pair] else {
            throw TranslationError.unsupportedPair(key.pair, available: pairs())
        }
        // A pair is probed before its first pool starts; a broken one is refused from then on.
        try await ensureWorks(key.pair)
        if let pool = pools[key] { return pool }  // made while we were suspended
        let limits = PipelinePoolStateMachine<ContinuousClock.Instant>.Limits(
            minPipelines: configuration.minPipelines, maxPipelines: configuration.maxPipelines,
            maxMemoryGrowth: configuration.maxMemoryGrowth, requestTimeout: configuration.requestTimeout)
        let (mark, tagger, timeout) = (key.marksUnknownWords, configuration.resettingTagger, configuration.requestTimeout)
        let pool = PipelinePool<ApertiumPipeline>(label: mode.name, limits: limits) {
            try await Self.startPipeline(file: mode.file, label: mode.name, markUnknownWords: mark, tagger: tagger, timeout: timeout)
        }
        // Stored before the first suspension, so concurrent callers share this one pool.
        pools[key] = pool
        await pool.start()
        return pool
    }

    /// Starts a pipeline and sends it one empty request, so that a broken mode fails here and a
    /// ready pipeline has its transducers loaded.
    static func startPipeline(file: URL, label: String, markUnknownWords: Bool, tagger: URL?, timeout: Duration) async throws -> ApertiumPipeline {
        // apertium-wblank-mode and posix_spawn block briefly: not on the cooperative pool.
        let pipeline = try await offPool { try ApertiumPipeline.start(modeFile: file, label: label, markUnknownWords: markUnknownWords, tagger: tagger) }
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            pipeline.terminate()
        }
        defer { watchdog.cancel() }
        do {
            _ = try await pipeline.run([Array(".[]".utf8)]) {}
        } catch {
            pipeline.terminate()
            throw TranslationError(.engineFailure, "The Apertium pipeline for \(label) did not start (mode file \(file.path)).")
        }
        return pipeline
    }
}

/// Runs blocking work on a Dispatch thread instead of the cooperative pool.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
