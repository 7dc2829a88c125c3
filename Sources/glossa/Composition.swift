import ApertiumEngine
import Foundation
import LanguageDetection
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
        return await TranslationService(engines: [apertium], detector: makeDetector())
    }

    /// The language detector.
    static func makeDetector() -> any LanguageDetector {
        CLD2Detector()
    }
}
