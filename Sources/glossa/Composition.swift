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

    /// Longest `glossa serve` waits for the warm pairs before it starts listening.
    static let prewarmLimit: Duration = .seconds(60)

    /// Pipelines per pair for one ordered stream (`glossa translate` over a file): one pipeline's
    /// stages already keep about two cores busy, so a second one on a two-core machine only
    /// competes for them (measured: 2 pipelines were slower than 1 over a 400k-word file).
    static var pipelinesForOneStream: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 2) }

    /// The pairs to start at once: `GLOSSA_PREWARM` (comma-separated pair names, `all` or `none`),
    /// else the default pairs that are installed.
    static func warmPairs(installed: [LanguagePair], environment: [String: String]) -> [LanguagePair] {
        let setting = environment["GLOSSA_PREWARM"]?.trimmingCharacters(in: .whitespaces)
        switch setting {
        case "none": return []
        case "all": return installed
        default:
            let names = setting.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                ?? defaultWarmPairs
            let wanted = names.compactMap { try? LanguagePair(parsing: $0) }
            return wanted.filter(installed.contains)
        }
    }

    /// The service over every installed engine. `prewarm` starts the warm pairs' pipelines now
    /// (`glossa serve`); other commands start a pipeline on a pair's first use.
    ///
    /// `pipelinesPerPair` caps each pair's pipelines (the engine's default, 2, serves concurrent
    /// clients); see ``pipelinesForOneStream``.
    static func makeService(prewarm: Bool = false, pipelinesPerPair: Int? = nil) async throws -> TranslationService {
        let environment = ProcessInfo.processInfo.environment
        var apertiumConfiguration = ApertiumEngine.Configuration()
        if let pipelinesPerPair { apertiumConfiguration.maxPipelines = pipelinesPerPair }
        let apertium = ApertiumEngine(configuration: apertiumConfiguration, environment: environment)
        if prewarm {
            let pairs = warmPairs(installed: await apertium.pairs(), environment: environment)
            Console.error("starting \(pairs.count) warm Apertium pairs…")
            // Waits until each warm pair has a pipeline up, so the service is ready when it says
            // so; but never longer than `prewarmLimit`: a slow machine still gets a service, and
            // the pipelines go on starting in the background.
            let warmed = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { try await apertium.prewarm(pairs); return true }
                group.addTask { try await Task.sleep(for: prewarmLimit); return false }
                defer { group.cancelAll() }
                return try await group.next() ?? false
            }
            if !warmed {
                Console.error("the warm pairs are still starting after \(prewarmLimit); serving anyway")
            }
        }
        let neural = NeuralEngine(store: ModelStore(root: ModelStore.defaultRoot(environment: environment)))
        var serviceConfiguration = TranslationService.Configuration()
        // Room for `LineReader.maxBatch` lines of a file in one call; the HTTP APIs apply
        // their own, smaller limits (128 texts for Google v2) before they reach the service.
        serviceConfiguration.maxTextsPerRequest = max(serviceConfiguration.maxTextsPerRequest, LineReader.maxBatch)
        return await TranslationService(engines: try engines(apertium: apertium, neural: neural, environment: environment),
                                        detector: makeDetector(), configuration: serviceConfiguration)
    }

    /// The engines in preference order: when two serve the same pair, the earlier one translates
    /// it. `GLOSSA_PREFER=neural` puts installed neural models first; the default, `apertium`,
    /// keeps rule-based pairs first (they are exact and fast between close languages).
    static func engines(apertium: any TranslationEngine, neural: any TranslationEngine,
                        environment: [String: String]) throws -> [any TranslationEngine] {
        switch environment["GLOSSA_PREFER"]?.lowercased() ?? "apertium" {
        case "apertium", "rule-based", "": return [apertium, neural]
        case "neural": return [neural, apertium]
        case let other:
            throw TranslationError.invalidArgument("GLOSSA_PREFER", given: other, accepted: "apertium, neural")
        }
    }

    /// The language detector.
    static func makeDetector() -> any LanguageDetector {
        GlossaDetector()
    }
}
