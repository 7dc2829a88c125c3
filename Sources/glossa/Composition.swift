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
    static func makeService(prewarm: Bool = false) async throws -> TranslationService {
        let environment = ProcessInfo.processInfo.environment
        let apertium = ApertiumEngine(configuration: ApertiumEngine.Configuration(), environment: environment)
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
        return await TranslationService(engines: try engines(apertium: apertium, neural: neural, environment: environment),
                                        detector: makeDetector())
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
        CLD2Detector()
    }
}
