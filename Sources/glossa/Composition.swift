import ApertiumEngine
import Foundation
import LanguageDetection
import NeuralCompute
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
        // Before the server listens: its first request already sees the check to come.
        await service.announceProbe()
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
        let overrides = EngineOverrides(pipelinesPerPair: pipelinesPerPair, neuralThreads: neuralThreads)
        // Every setting is read and checked before any engine starts, so a bad value leaves no
        // engine running behind the error.
        let order = try preferred(registeredEngines, environment: environment)
        let starts = try order.map { try $0.prepare(environment: environment, overrides: overrides) }
        let made = starts.map { $0() }
        // Why a cast: APy's endpoints and the warm-up need the Apertium engine itself, and it is
        // always registered.
        guard let apertium = made.lazy.compactMap({ $0 as? ApertiumEngine }).first else {
            preconditionFailure("the Apertium engine is always registered")
        }
        var serviceConfiguration = TranslationService.Configuration()
        // Room for `LineReader.maxBatch` lines of a file in one call; the HTTP APIs apply
        // their own, smaller limits (128 texts for Google v2) before they reach the service.
        serviceConfiguration.maxTextsPerRequest = max(serviceConfiguration.maxTextsPerRequest, LineReader.maxBatch)
        // Checked at start (``EnvironmentSettings``).
        serviceConfiguration.cacheBytes = (environment["GLOSSA_TRANSLATION_CACHE_MB"].flatMap { Int($0) } ?? defaultCacheMegabytes) << 20
        // LibreTranslate's --load-only / LT_LOAD_ONLY: only these languages, in every engine.
        let engines = loadOnly(environment).map { only in made.map { LimitedEngine($0, to: only) as any TranslationEngine } } ?? made
        let service = await TranslationService(engines: engines, detector: makeDetector(), configuration: serviceConfiguration)
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
        // The compute backend: this CPU's kernels, with GLOSSA_INT8_KERNEL / GLOSSA_FLOAT_GEMM
        // (checked before the engines start) applied. A GPU backend would be chosen here.
        c.backend = CPUBackend(capabilities: .current, preference: .environment(environment))
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

    /// The engines Glossa runs, in the default preference order: an engine is one entry here
    /// (``EngineRegistration``), and GLOSSA_PREFER's accepted names come from this list.
    static let registeredEngines: [any EngineRegistration] = [ApertiumRegistration(), NeuralRegistration()]

    /// The registrations in preference order: when two engines serve the same pair, the earlier
    /// one translates it. `GLOSSA_PREFER=neural` puts installed neural models first; the
    /// default, `apertium` (the first registered), keeps rule-based pairs first (they are exact
    /// and fast between close languages).
    static func preferred(_ registered: [any EngineRegistration],
                          environment: [String: String]) throws -> [any EngineRegistration] {
        let wanted = environment["GLOSSA_PREFER"] ?? ""
        if wanted.isEmpty { return registered }
        guard let first = registered.firstIndex(where: { $0.name == wanted }) else {
            throw TranslationError.invalidArgument("GLOSSA_PREFER", given: wanted,
                                                   accepted: registered.map(\.name).joined(separator: ", "))
        }
        var order = registered
        order.insert(order.remove(at: first), at: 0)
        return order
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

/// What a command sets over the environment for its engines.
struct EngineOverrides {
    /// Pipelines per Apertium pair (`glossa translate`: one stream); nil keeps GLOSSA_PIPELINES.
    var pipelinesPerPair: Int?
    /// Threads per neural batch (`glossa translate --threads`); nil keeps GLOSSA_NEURAL_THREADS.
    var neuralThreads: Int?
}

/// One engine Glossa can run: its name, its typed settings read once from the environment, and
/// how it starts from them. Adding an engine is one conformance and one entry in
/// ``Composition/registeredEngines``.
protocol EngineRegistration: Sendable {
    /// The engine's settings, read and checked before anything starts.
    associatedtype Settings
    /// The engine's name, as GLOSSA_PREFER and `glossa pairs` spell it.
    var name: String { get }
    /// Reads the settings from the environment and the command.
    /// - Throws: for a value the engine does not accept.
    func settings(environment: [String: String], overrides: EngineOverrides) throws -> Settings
    /// Starts the engine.
    func start(_ settings: Settings, environment: [String: String]) -> any TranslationEngine
}

extension EngineRegistration {
    /// Reads the settings now; the engine starts when the returned closure is called.
    func prepare(environment: [String: String], overrides: EngineOverrides) throws -> () -> any TranslationEngine {
        let settings = try settings(environment: environment, overrides: overrides)
        return { start(settings, environment: environment) }
    }
}

/// Debian's Apertium pairs: GLOSSA_PIPELINES, GLOSSA_MAX_WARM and GLOSSA_IDLE_CLOSE (their syntax
/// checked at start by ``EnvironmentSettings``).
struct ApertiumRegistration: EngineRegistration {
    let name = "apertium"

    func settings(environment: [String: String], overrides: EngineOverrides) -> ApertiumEngine.Configuration {
        var configuration = ApertiumEngine.Configuration()
        // A command's own cap (one stream) wins over the environment's.
        if let pipelines = environment["GLOSSA_PIPELINES"].flatMap({ Int($0) }) { configuration.maxPipelines = pipelines }
        if let pipelines = overrides.pipelinesPerPair { configuration.maxPipelines = pipelines }
        switch environment["GLOSSA_MAX_WARM"] ?? "" {
        case "": break
        case "all": configuration.maxWarmPools = nil
        case let value: configuration.maxWarmPools = Int(value)
        }
        switch environment["GLOSSA_IDLE_CLOSE"] ?? "" {
        case "": break
        case "never": configuration.idleTimeout = nil
        case let value: configuration.idleTimeout = Int(value).map { .seconds($0) }
        }
        return configuration
    }

    func start(_ settings: ApertiumEngine.Configuration, environment: [String: String]) -> any TranslationEngine {
        ApertiumEngine(configuration: settings, environment: environment)
    }
}

/// Argos Translate packages in Glossa's models folder and argos-translate's own: the
/// GLOSSA_NEURAL_* settings (``Composition/neuralSettings(environment:)``).
struct NeuralRegistration: EngineRegistration {
    let name = "neural"

    func settings(environment: [String: String], overrides: EngineOverrides) throws -> NeuralEngine.Configuration {
        var configuration = try Composition.neuralSettings(environment: environment)
        if let threads = overrides.neuralThreads { configuration.threads = threads }
        return configuration
    }

    func start(_ settings: NeuralEngine.Configuration, environment: [String: String]) -> any TranslationEngine {
        NeuralEngine(store: ModelStore(root: ModelStore.defaultRoot(environment: environment)),
                     alsoReading: [ModelStore(root: Composition.argosPackagesRoot(environment: environment))],
                     configuration: settings)
    }
}
