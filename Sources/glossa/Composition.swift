import ApertiumEngine
import Foundation
import LanguageDetection
import NeuralEngine
import TranslationCore
import TranslationService

/// The composition root: builds the engines and the detector from the environment and hands
/// them to the service. The only place that knows which engine modules exist.
enum Composition {
    /// The directions of the default pairs (`make serve` installs their packages), started when
    /// the service starts so the first request on them does not wait for a pipeline.
    static let defaultWarmPairs = ["eng-spa", "spa-eng", "eng-cat", "cat-eng", "spa-cat", "cat-spa",
                                   "es-pt", "pt-es", "fr-es", "es-fr", "es-gl", "gl-es"]


    /// Pipelines per pair for one ordered stream (`glossa translate` over a file): one pipeline's
    /// stages already keep about two cores busy, so a second one on a two-core machine only
    /// competes for them (measured: 2 pipelines were slower than 1 over a 400k-word file).
    static var pipelinesForOneStream: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 2) }

    /// The pairs to start at once: `GLOSSA_PREWARM` (comma-separated pair names, `all` or `none`;
    /// empty or unset: the default pairs that are installed).
    /// - Throws: a usage error when the setting names a pair that is not installed (its syntax
    ///   was checked at start, by ``EnvironmentSettings``).
    static func warmPairs(installed: [LanguagePair], environment: [String: String]) throws -> [LanguagePair] {
        let setting = environment["GLOSSA_PREWARM"]?.trimmingCharacters(in: .whitespaces) ?? ""
        switch setting {
        case "": return defaultWarmPairs.compactMap { try? LanguagePair(parsing: $0) }.filter(installed.contains)
        case "none": return []
        case "all": return installed
        default:
            let names = setting.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let wanted = try names.map { (name: $0, pair: try LanguagePair(parsing: $0)) }
            let missing = wanted.filter { !installed.contains($0.pair) }.map(\.name)
            guard missing.isEmpty else {
                throw Arguments.UsageError(description: "GLOSSA_PREWARM names \(missing.joined(separator: ", ")), "
                    + "which \(missing.count == 1 ? "is not an installed pair" : "are not installed pairs") "
                    + "(`glossa pairs` lists them; GLOSSA_PREWARM=all starts every one)")
            }
            return wanted.map(\.pair)
        }
    }

    /// What `glossa serve` runs: the service, and the warm-up it runs once its address is bound
    /// (so a busy port or a bad address is reported at once, not after the warm-up).
    struct Serving {
        let service: TranslationService
        /// The Apertium engine under it, whose analysis modes and pipeline counts APy's
        /// endpoints show.
        let apertium: ApertiumEngine
        /// Checks every installed pair (``Probing``) and starts the warm pairs' pipelines, saying
        /// so on stderr; returns when both are done. `glossa serve` runs it in the background
        /// while it already answers requests (a pair not yet checked is checked before its first
        /// translation, and one found broken leaves the lists).
        let warmUp: @Sendable () async -> Void
    }

    /// The service for `glossa serve`, with its warm-up not yet run.
    /// - Throws: when `GLOSSA_PREWARM` names a pair that is not installed, or an engine fails.
    static func makeServing() async throws -> Serving {
        let environment = ProcessInfo.processInfo.environment
        let (apertium, service) = try await build(pipelinesPerPair: nil, environment: environment)
        let pairs = try warmPairs(installed: await apertium.pairs(), environment: environment)
        return Serving(service: service, apertium: apertium, warmUp: {
            // Probing starts the pipeline of every pair not probed before; the warm pairs' own
            // probes are among them, so both run together.
            async let probed: Void = Probing.run(service)
            if !pairs.isEmpty {
                Console.error("starting \(pairs.count) warm Apertium pairs…")
                // `prewarm` throws only for a pair that is not installed, and `pairs` holds none.
                _ = try? await apertium.prewarm(pairs)
            }
            await probed
        })
    }

    /// The service over every installed engine; a pair's pipeline starts on its first use.
    ///
    /// `pipelinesPerPair` caps each pair's pipelines (the engine's default, 2, serves concurrent
    /// clients); see ``pipelinesForOneStream``.
    /// `neuralThreads` (`glossa translate --threads`) overrides GLOSSA_NEURAL_THREADS.
    ///
    /// `probe` first checks that every installed pair works (see ``Probing``), so that lists and
    /// routes leave out the broken ones; without it a pair is checked on first use.
    /// Megabytes of the translation cache when GLOSSA_TRANSLATION_CACHE_MB is unset: tens of
    /// thousands of UI strings with their translations, small beside a warm Apertium pipeline
    /// (30-250 MB).
    static let defaultCacheMegabytes = 64

    static func makeService(probe: Bool = false, pipelinesPerPair: Int? = nil, neuralThreads: Int? = nil) async throws -> TranslationService {
        let service = try await build(pipelinesPerPair: pipelinesPerPair, neuralThreads: neuralThreads,
                                      environment: ProcessInfo.processInfo.environment).service
        if probe { await Probing.run(service) }
        return service
    }

    private static func build(pipelinesPerPair: Int?, neuralThreads: Int? = nil,
                              environment: [String: String]) async throws -> (apertium: ApertiumEngine, service: TranslationService) {
        var apertiumConfiguration = ApertiumEngine.Configuration()
        // Checked at start (``EnvironmentSettings``); a command's own cap (one stream) wins.
        if let pipelines = environment["GLOSSA_PIPELINES"].flatMap({ Int($0) }) { apertiumConfiguration.maxPipelines = pipelines }
        if let pipelinesPerPair { apertiumConfiguration.maxPipelines = pipelinesPerPair }
        // Checked at start (``EnvironmentSettings``): an integer or the word.
        switch environment["GLOSSA_MAX_WARM"] ?? "" {
        case "": break
        case "all": apertiumConfiguration.maxWarmPools = nil
        case let value: apertiumConfiguration.maxWarmPools = Int(value)
        }
        switch environment["GLOSSA_IDLE_CLOSE"] ?? "" {
        case "": break
        case "never": apertiumConfiguration.idleTimeout = nil
        case let value: apertiumConfiguration.idleTimeout = Int(value).map { .seconds($0) }
        }
        let apertium = ApertiumEngine(configuration: apertiumConfiguration, environment: environment)
        var neuralConfiguration = try neuralSettings(environment: environment)
        if let neuralThreads { neuralConfiguration.threads = neuralThreads }
        let neural = NeuralEngine(store: ModelStore(root: ModelStore.defaultRoot(environment: environment)),
                                  alsoReading: [ModelStore(root: argosPackagesRoot(environment: environment))],
                                  configuration: neuralConfiguration)
        var serviceConfiguration = TranslationService.Configuration()
        // Room for `LineReader.maxBatch` lines of a file in one call; the HTTP APIs apply
        // their own, smaller limits (128 texts for Google v2) before they reach the service.
        serviceConfiguration.maxTextsPerRequest = max(serviceConfiguration.maxTextsPerRequest, LineReader.maxBatch)
        // Checked at start (``EnvironmentSettings``).
        serviceConfiguration.cacheBytes = (environment["GLOSSA_TRANSLATION_CACHE_MB"].flatMap { Int($0) } ?? defaultCacheMegabytes) << 20
        let service = await TranslationService(engines: try engines(apertium: apertium, neural: neural, environment: environment),
                                               detector: makeDetector(), configuration: serviceConfiguration)
        return (apertium, service)
    }

    /// The neural engine's serving settings from the environment: GLOSSA_NEURAL_WORKERS
    /// (batches translated at once, default 1), GLOSSA_NEURAL_THREADS (threads per batch, default
    /// 1), GLOSSA_NEURAL_BATCHING (`on`, the default, merges concurrent requests' sentences into
    /// shared batches; `off` translates each request alone), GLOSSA_NEURAL_QUEUE (sentences that
    /// may wait before requests get 503, default 4096), GLOSSA_NEURAL_BEAM (the beam size of
    /// requests that set none, default 4 as Argos Translate; 1 is greedy search).
    static func neuralSettings(environment: [String: String]) throws -> NeuralEngine.Configuration {
        var c = NeuralEngine.Configuration()
        func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw TranslationError.invalidArgument(name, given: text, accepted: "an integer in \(range.lowerBound)…\(range.upperBound)")
            }
            return value
        }
        if let v = try integer("GLOSSA_NEURAL_WORKERS", in: 1...256) { c.workers = v }
        if let v = try integer("GLOSSA_NEURAL_THREADS", in: 1...256) { c.threads = v }
        if let v = try integer("GLOSSA_NEURAL_QUEUE", in: 1...1_000_000) { c.maxQueuedSentences = v }
        if let v = try integer("GLOSSA_NEURAL_BEAM", in: 1...64) { c.defaults.beamSize = v }
        if let v = try integer("GLOSSA_NEURAL_IDLE_UNLOAD", in: 0...1_000_000) { c.idleUnloadSeconds = v == 0 ? nil : Double(v) }
        switch environment["GLOSSA_NEURAL_BATCHING"]?.lowercased() ?? "" {
        case "", "on": c.batching = true
        case "off": c.batching = false
        case let other: throw TranslationError.invalidArgument("GLOSSA_NEURAL_BATCHING", given: other, accepted: "on, off")
        }
        return c
    }

    /// The engines in preference order: when two serve the same pair, the earlier one translates
    /// it. `GLOSSA_PREFER=neural` puts installed neural models first; the default, `apertium`,
    /// keeps rule-based pairs first (they are exact and fast between close languages).
    static func engines(apertium: any TranslationEngine, neural: any TranslationEngine,
                        environment: [String: String]) throws -> [any TranslationEngine] {
        var engines: [any TranslationEngine]
        switch environment["GLOSSA_PREFER"] ?? "" {
        case "apertium", "": engines = [apertium, neural]
        case "neural": engines = [neural, apertium]
        case let other:
            throw TranslationError.invalidArgument("GLOSSA_PREFER", given: other, accepted: "apertium, neural")
        }
        // LibreTranslate's --load-only / LT_LOAD_ONLY: only these languages, in every engine.
        if let only = loadOnly(environment) { engines = engines.map { LimitedEngine($0, to: only) } }
        return engines
    }

    /// The languages of GLOSSA_LOAD_ONLY (what `glossa serve --load-only` sets) or LibreTranslate's
    /// LT_LOAD_ONLY: a comma-separated list of codes; nil when neither is set.
    static func loadOnly(_ environment: [String: String]) -> Set<String>? {
        guard let list = environment["GLOSSA_LOAD_ONLY"] ?? environment["LT_LOAD_ONLY"] else { return nil }
        let codes = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return codes.isEmpty ? nil : Set(codes.map { (try? LanguageCode(parsing: $0))?.language ?? $0 })
    }

    /// Where argos-translate (and so LibreTranslate) installs packages, read in place:
    /// ARGOS_PACKAGES_DIR, else $XDG_DATA_HOME/argos-translate/packages, else
    /// ~/.local/share/argos-translate/packages (argos-translate's own rule).
    static func argosPackagesRoot(environment: [String: String]) -> URL {
        if let dir = environment["ARGOS_PACKAGES_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return URL(fileURLWithPath: data).appendingPathComponent("argos-translate/packages")
    }

    /// The language detector.
    static func makeDetector() -> any LanguageDetector {
        GlossaDetector()
    }
}
