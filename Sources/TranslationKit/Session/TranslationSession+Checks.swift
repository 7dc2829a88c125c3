import Foundation
import TranslationCore

/// The rules every call applies before and after the backend: languages converted at the edge,
/// Apple's failures for blank input, same-language pairs and cancelled sessions, and a
/// not-installed pair told apart from an unsupported one.
extension TranslationSession {
    /// The session's pair in Glossa's codes; the source is nil when it is to be detected.
    func resolvedPair() throws -> (source: LanguageCode?, target: LanguageCode) {
        let targetLanguage = targetLanguage ?? .userPreferred
        guard let target = try? LanguageCode(targetLanguage) else {
            throw TranslationError.unsupportedTargetLanguage.with("Glossa does not know the language '\(targetLanguage.minimalIdentifier)'.")
        }
        guard let sourceLanguage else { return (nil, target) }
        guard let source = try? LanguageCode(sourceLanguage) else {
            throw TranslationError.unsupportedSourceLanguage.with("Glossa does not know the language '\(sourceLanguage.minimalIdentifier)'.")
        }
        // Apple: a pair of one language (en-US → en-GB) is unsupported.
        if source.language == target.language, source.script == nil || target.script == nil || source.script == target.script {
            throw TranslationError.unsupportedLanguagePairing.with("The source and target are the same language (\(source.bcp47) → \(target.bcp47)).")
        }
        return (source, target)
    }

    /// Checks a batch before any work: not cancelled, something to translate, a valid pair.
    func check(_ batch: [Request]) throws -> (source: LanguageCode?, target: LanguageCode) {
        try checkNotCancelled()
        guard batch.contains(where: { !$0.sourceText.allSatisfy(\.isWhitespace) }) else {
            throw TranslationError.nothingToTranslate.with(batch.isEmpty ? "The batch is empty." : "Every text is empty or blank.")
        }
        let pair = try resolvedPair()
        if !configuration.glossary.isEmpty, pair.source == nil {
            throw TranslationError.unableToIdentifyLanguage.with("A glossary is for one source language: set the configuration's source.")
        }
        return pair
    }

    func checkNotCancelled() throws {
        if isCancelled { throw TranslationError.alreadyCancelled.with("cancel() was called on this session.") }
    }

    var isCancelled: Bool { cancelledState.withLock { $0 } }

    /// The response for one request.
    func response(for request: Request, _ translated: Translated) -> Response {
        Response(sourceLanguage: sourceLanguage ?? translated.source.localeLanguage,
                 targetLanguage: targetLanguage ?? .userPreferred, sourceText: request.sourceText,
                 targetText: translated.text, clientIdentifier: request.clientIdentifier)
    }

    /// An unsupported-pair error from the engines becomes `.notInstalled` (with the command)
    /// when a package would bring the pair, and otherwise names the side that no engine *or
    /// package* serves; other errors pass through.
    func explain(_ error: TranslationError, pair: (source: LanguageCode?, target: LanguageCode)) async -> TranslationError {
        guard let source = pair.source,
              error == .unsupportedLanguagePairing || error == .unsupportedSourceLanguage || error == .unsupportedTargetLanguage,
              let plan = try? await InstallPlan.make(from: source, to: pair.target, catalogue: .debian,
                                                     transport: backend.transport)
        else { return error }
        switch plan {
        case .packages(let packages): return notInstalled(source: source, target: pair.target, packages: packages)
        case .unavailable: return await unsupported(source: source, target: pair.target)
        case .installed: return error
        }
    }

    func notInstalled(source: LanguageCode, target: LanguageCode, packages: [String]) -> TranslationError {
        let command = AptInstaller.command(for: packages)
        switch backend.transport.location {
        case .thisMachine:
            return TranslationError.notInstalled.with(
                "\(source.displayName()) → \(target.displayName()) needs \(packages.joined(separator: ", ")): call prepareTranslation() or run: \(command)")
        case .server(let url):
            return TranslationError.notInstalled.with(
                "The server at \(url) cannot translate \(source.displayName()) → \(target.displayName()) yet; on the server run: \(command) (or restart it with make serve PAIRS=\"\(packages.joined(separator: " "))\")")
        }
    }

    /// The error for a pair no package brings, naming the side that is the problem: a source
    /// nothing translates from, a target nothing translates into, or two that nothing joins.
    func unsupported(source: LanguageCode, target: LanguageCode) async -> TranslationError {
        let pairs = ((try? await backend.transport.installedPairs()) ?? []) + PairCatalogue.debian.entries.flatMap(\.pairs)
        if !pairs.contains(where: { $0.source.serves(source) }) {
            return TranslationError.unsupportedSourceLanguage.with("Glossa has no engine or package that translates from \(source.displayName()) (\(source.bcp47)).")
        }
        if !pairs.contains(where: { $0.target.serves(target) }) {
            return TranslationError.unsupportedTargetLanguage.with("Glossa has no engine or package that translates into \(target.displayName()) (\(target.bcp47)).")
        }
        return TranslationError.unsupportedLanguagePairing.with(
            "No installed engine and no Debian package translates \(source.displayName()) → \(target.displayName()), directly or through English, Spanish, Catalan or French.")
    }
}
