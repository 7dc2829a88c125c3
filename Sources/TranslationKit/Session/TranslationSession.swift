import Foundation
import Synchronization
import TranslationCore

/// Translates text between two languages, with the names and semantics of Apple's
/// `Translation.TranslationSession`, over Glossa's engines in this process or on a server.
///
/// ```swift
/// import TranslationKit
///
/// let session = TranslationSession(
///     configuration: .init(source: Locale.Language(identifier: "en"), target: Locale.Language(identifier: "es")),
///     backend: .server(URL(string: "http://127.0.0.1:8080")!))
/// let one = try await session.translate("Good morning")                 // one.targetText == "Buenos días"
/// let ordered = try await session.translations(from: requests)           // request order
/// for try await response in session.translate(batch: requests) {         // as each is ready
///     print(response.clientIdentifier ?? "", response.targetText)
/// }
/// ```
///
/// Where Apple hands sessions out through SwiftUI's `translationTask`, here you make them with
/// ``init(configuration:backend:)``. A session is `Sendable`; calls may run concurrently.
public final class TranslationSession: Sendable {
    /// The configuration the session was made with.
    public let configuration: Configuration
    /// The language translated from; nil detects each text's language.
    public var sourceLanguage: Locale.Language? { configuration.source }
    /// The language translated into: the configured one, or the user's preferred language.
    public let targetLanguage: Locale.Language?
    /// Whether ``prepareTranslation()`` and translations may install missing languages. False for
    /// sessions made with ``init(installedSource:target:backend:)``.
    public let canRequestDownloads: Bool

    let backend: Backend
    /// Set by ``cancel()``; every later call throws ``TranslationError/alreadyCancelled``.
    let cancelledState = Mutex(false)

    /// Makes a session for `configuration` over `backend`.
    public init(configuration: Configuration = Configuration(), backend: Backend) {
        self.configuration = configuration
        self.targetLanguage = configuration.target ?? .userPreferred
        self.backend = backend
        self.canRequestDownloads = true
    }

    /// Makes a session for languages that must already be installed (Apple's
    /// `init(installedSource:target:)`): calls throw ``TranslationError/notInstalled`` instead of
    /// offering to install. The backend defaults to ``Backend/default``.
    public init(installedSource: Locale.Language, target: Locale.Language? = nil, backend: Backend = .default) {
        self.configuration = Configuration(source: installedSource, target: target)
        self.targetLanguage = target ?? .userPreferred
        self.backend = backend
        self.canRequestDownloads = false
    }

    /// Cancels the session: calls in flight stop and later calls throw ``TranslationError/alreadyCancelled``.
    public func cancel() { cancelledState.withLock { $0 = true } }

    /// Whether the languages are installed, so a translation can start at once.
    public var isReady: Bool {
        get async {
            guard let pair = try? resolvedPair(), let source = pair.source else { return false }
            return (try? await backend.transport.isInstalled(from: source, to: pair.target)) ?? false
        }
    }

    /// Translates one text.
    /// - Throws: ``TranslationError``: `.nothingToTranslate` for blank text, `.unableToIdentifyLanguage`,
    ///   `.unsupportedSourceLanguage`/`.unsupportedTargetLanguage`/`.unsupportedLanguagePairing`,
    ///   `.notInstalled` (with the command to run), `.alreadyCancelled`, `.internalError`.
    public func translate(_ string: String) async throws -> Response {
        try await translations(from: [Request(sourceText: string)])[0]
    }

    /// Translates a batch and returns all responses at once, in request order.
    /// - Throws: the first ``TranslationError`` of any request (see ``translate(_:)``).
    public func translations(from batch: [Request]) async throws -> [Response] {
        let pair = try check(batch)
        do {
            let results = try await backend.transport.translateAll(batch.map(\.sourceText), from: pair.source, to: pair.target,
                                                                   glossary: configuration.glossaryEntries)
            try checkNotCancelled()
            return zip(batch, results).map { response(for: $0, $1) }
        } catch let error as TranslationError {
            throw await explain(error, pair: pair)
        }
    }

    /// Translates a batch, yielding each response as soon as it is ready (see ``BatchResponse``).
    public func translate(batch: [Request]) -> BatchResponse {
        BatchResponse { [self] in
            let (stream, continuation) = AsyncThrowingStream<Response, any Error>.makeStream()
            let task = Task {
                do {
                    let pair = try check(batch)
                    for try await item in backend.transport.stream(batch.map(\.sourceText), from: pair.source, to: pair.target,
                                                                   glossary: configuration.glossaryEntries) {
                        try checkNotCancelled()
                        switch item.outcome {
                        case .success(let translated): continuation.yield(response(for: batch[item.index], translated))
                        case .failure(let error): throw await explain(error, pair: pair)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
            return stream
        }
    }

    /// Makes sure the languages are installed, installing the Apertium packages they need when
    /// this process may (see ``prepareTranslation(progress:)``).
    public func prepareTranslation() async throws {
        try await prepareTranslation(progress: { _ in })
    }

    /// Makes sure the languages are installed, reporting what it does through `progress`.
    ///
    /// On the local backend missing packages are installed with `apt-get` (as root or through
    /// password-less `sudo`), then the engines are reloaded; on a server only its administrator
    /// can install, so this throws ``TranslationError/notInstalled`` with the command to run there.
    /// - Throws: `.unableToIdentifyLanguage` when the session has no source language; `.unsupported…`
    ///   when no package brings the pair; `.notInstalled` when installing is not possible here.
    public func prepareTranslation(progress: @escaping @Sendable (PreparationProgress) -> Void) async throws {
        try checkNotCancelled()
        let pair = try resolvedPair()
        guard let source = pair.source else {
            throw TranslationError.unableToIdentifyLanguage.with("The session has no source language; give one in the configuration to prepare it.")
        }
        progress(.checking)
        let plan = try await InstallPlan.make(from: source, to: pair.target, catalogue: .debian, transport: backend.transport)
        switch plan {
        case .installed:
            progress(.alreadyInstalled)
        case .unavailable:
            throw await unsupported(source: source, target: pair.target)
        case .packages(let packages):
            guard canRequestDownloads, backend.transport.location == .thisMachine else {
                throw notInstalled(source: source, target: pair.target, packages: packages)
            }
            progress(.installing(packages: packages))
            try await backend.installer.install(packages, progress: progress)
            try await backend.transport.reload()
            guard try await backend.transport.isInstalled(from: source, to: pair.target) else {
                throw TranslationError.notInstalled.with(
                    "Installed \(packages.joined(separator: ", ")), but \(source.bcp47)→\(pair.target.bcp47) is still not available: restart the process (a TranslationService reads its pairs when it is made) or use Backend.local(makeService:).")
            }
            progress(.installed(packages: packages))
        }
    }
}
