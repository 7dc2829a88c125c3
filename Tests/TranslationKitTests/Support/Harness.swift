import Foundation
import Synchronization
import Testing
import ServerTestSupport
import HTTPServer
import ServerAPI
import TranslationCore
import TranslationTesting
import TranslationKit
import TranslationService

/// The backends every session test runs against.
enum BackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A TranslationService in this process.
    case local
    /// A real Glossa HTTP server on 127.0.0.1 (an ephemeral port) over the same service.
    case server
    var testDescription: String { rawValue }
}

/// A backend over the fake engine, and the probe that sees what the engine did.
struct Harness: Sendable {
    let backend: TranslationSession.Backend
    let probe: EngineProbe
    /// Records what `prepareTranslation()` asked to install (local backend only).
    let installer: RecordingInstaller

    static func make(_ kind: BackendKind, maxConcurrent: Int = 4) async throws -> Harness {
        let probe = EngineProbe()
        let installer = RecordingInstaller()
        let service = await TranslationService(engines: [FakeEngine(name: "fake", served: fakePairs, probe: probe)],
                                               detector: FakeDetector.prefix)
        switch kind {
        case .local:
            return Harness(backend: .local(service, installer: installer, maxConcurrent: maxConcurrent),
                           probe: probe, installer: installer)
        case .server:
            let live = try LiveServer.start(service: service).keptForTheProcess()
            return Harness(backend: .server(URL(string: live.url)!), probe: probe, installer: installer)
        }
    }

    func session(_ source: String?, _ target: String?) -> TranslationSession {
        TranslationSession(configuration: .init(source: source.map(Locale.Language.init(identifier:)),
                                                 target: target.map(Locale.Language.init(identifier:))),
                           backend: backend)
    }
}

/// An installer that must not be called (sessions on a fixed service).
struct RefusingInstaller: PackageInstaller {
    func install(_ packages: [String], progress: @escaping @Sendable (PreparationProgress) -> Void) async throws {
        throw TranslationKit.TranslationError.internalError
    }
}

/// An installer that "installs" by adding the pairs to a registry the service factory reads.
final class RecordingInstaller: PackageInstaller {
    let installed = Mutex<[String]>([])
    func install(_ packages: [String], progress: @escaping @Sendable (PreparationProgress) -> Void) async throws {
        progress(.output("Setting up \(packages.joined(separator: " ")) ..."))
        installed.withLock { $0 += packages }
    }
}

/// Collects values from concurrent callbacks.
final class Recorder<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func append(_ item: T) { items.withLock { $0.append(item) } }
    var all: [T] { items.withLock { $0 } }
}

/// The pairs the fake engine serves: English ↔ Spanish, Spanish ↔ Catalan, French → Spanish.
let fakePairs: [LanguagePair] = pairs("en-es", "es-en", "es-ca", "ca-es", "fr-es")
