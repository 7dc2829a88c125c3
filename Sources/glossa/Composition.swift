import ApertiumEngine
import Foundation
import LanguageDetection
import TranslationCore
import TranslationService

/// The composition root: builds the engines and the detector from the environment and hands
/// them to the service. The only place that knows which engine modules exist.
enum Composition {
    /// Extra Apertium mode directories from `GLOSSA_APERTIUM_MODES` (colon-separated).
    static var extraModeDirectories: [String] {
        (ProcessInfo.processInfo.environment["GLOSSA_APERTIUM_MODES"] ?? "")
            .split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }

    /// The service over every installed engine. `prewarm` starts pipelines now (for commands that
    /// translate); listing commands leave it off so they return at once.
    static func makeService(prewarm: Bool = true) async throws -> TranslationService {
        // Apertium pipelines start on first use of a pair, so listing commands stay fast either way.
        await TranslationService(engines: [ApertiumEngine()], detector: makeDetector())
    }

    /// The language detector.
    static func makeDetector() -> any LanguageDetector {
        CLD2Detector()
    }
}

/// Placeholder until the CLD2 detector lands.
struct NoDetector: LanguageDetector {
    func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        texts.map { _ in .unknown }
    }
}
