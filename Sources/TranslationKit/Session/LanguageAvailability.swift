import Foundation
import TranslationCore

/// Which languages can be translated, and whether a pair is ready, as Apple's
/// `Translation.LanguageAvailability`.
///
/// ```swift
/// let availability = LanguageAvailability(backend: .server(url))
/// switch await availability.status(from: Locale.Language(identifier: "en"), to: Locale.Language(identifier: "es")) {
/// case .installed: print("ready")
/// case .supported: print("call prepareTranslation() to install it")
/// case .unsupported: print("no way to translate this pair")
/// }
/// ```
public struct LanguageAvailability: Sendable {
    /// Whether a pair can be translated.
    public enum Status: Sendable, Equatable, Hashable {
        /// Installed: a translation can start now.
        case installed
        /// Glossa knows how to get it (a Debian package, directly or through a pivot) but it is not
        /// installed yet: ``TranslationSession/prepareTranslation()`` installs it.
        case supported
        /// Neither installed nor installable; also every pair of one language (en-US → en-GB).
        case unsupported
    }

    private let backend: TranslationSession.Backend

    /// Availability on ``TranslationSession/Backend/default`` (the server at `GLOSSA_URL`).
    public init() { self.backend = .default }

    /// Availability on `backend`.
    public init(backend: TranslationSession.Backend) { self.backend = backend }

    /// Every language that is installed or installable, as source or target.
    public var supportedLanguages: [Locale.Language] {
        get async {
            let installed = (try? await backend.transport.installedPairs()) ?? []
            let codes = PairCatalogue.debian.languages.union(installed.flatMap { [$0.source.base, $0.target.base] })
            return codes.sorted().map(\.localeLanguage)
        }
    }

    /// The status of `source → target` (`target` nil: the user's preferred language). Never
    /// throws, as Apple's: a backend that cannot be asked gives `.unsupported`.
    public func status(from source: Locale.Language, to target: Locale.Language?) async -> Status {
        let target = target ?? .userPreferred
        guard let s = try? LanguageCode(source), let t = try? LanguageCode(target) else { return .unsupported }
        if s.language == t.language, s.script == nil || t.script == nil || s.script == t.script { return .unsupported }
        let plan = try? await InstallPlan.make(from: s, to: t, catalogue: .debian, isInstalled: backend.transport.isInstalled)
        switch plan {
        case .installed?: return .installed
        case .packages?: return .supported
        case .unavailable?, nil: return .unsupported
        }
    }

    /// The status for translating `text` (its language is detected) into `target`.
    /// - Throws: ``TranslationError/nothingToTranslate`` for blank text,
    ///   ``TranslationError/unableToIdentifyLanguage`` when its language cannot be detected,
    ///   ``TranslationError/internalError`` when the backend cannot be asked.
    public func status(for text: String, to target: Locale.Language?) async throws -> Status {
        guard !text.allSatisfy(\.isWhitespace) else { throw TranslationError.nothingToTranslate.with("The text is empty or blank.") }
        guard let language = try await backend.transport.detect(text) else {
            throw TranslationError.unableToIdentifyLanguage.with("Could not identify the language of \"\(text.prefix(40))\".")
        }
        return await status(from: language.localeLanguage, to: target)
    }
}
