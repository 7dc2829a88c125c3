import TranslationCore

/// One translated text as a backend returns it.
struct Translated: Sendable, Equatable {
    /// The translation.
    var text: String
    /// The language it was translated from (given or detected).
    var source: LanguageCode

    /// A backend's answer as Apple's framework gives it: a text whose source was left to
    /// detection and has no language in it (the service passes it through, its source
    /// undetermined) is `unableToIdentifyLanguage`, as `TranslationSession` throws.
    static func outcome(text: String, source: LanguageCode?, sourceText: String? = nil) -> Result<Translated, TranslationError> {
        guard let source, source != .undetermined else {
            let shown = sourceText.map { " (\"\($0.prefix(40))\")" } ?? ""
            return .failure(TranslationError.unableToIdentifyLanguage.with("Could not identify the language of the text\(shown); give the source language."))
        }
        return .success(Translated(text: text, source: source))
    }
}

/// One outcome of a streamed batch: which input, and its translation or error.
struct StreamedItem: Sendable {
    var index: Int
    var outcome: Result<Translated, TranslationError>
}

/// What a session needs from where the engines are: this process or a Glossa server. Both
/// implementations report failures as TranslationKit's (Apple-named) ``TranslationError``.
protocol SessionTransport: Sendable {
    /// Translates the batch, one result per text in order; the first failure throws.
    /// `glossary` (given only with a source): terms whose translation is fixed.
    func translateAll(_ texts: [String], from source: LanguageCode?, to target: LanguageCode, glossary: [GlossaryEntry]) async throws -> [Translated]

    /// Translates each text and yields each outcome as soon as it is ready. The stream throws
    /// only when the whole batch failed (unreachable server, rejected request). Ending the
    /// iteration stops the work that is left.
    func stream(_ texts: [String], from source: LanguageCode?, to target: LanguageCode, glossary: [GlossaryEntry]) -> AsyncThrowingStream<StreamedItem, any Error>

    /// Every direction that can be translated now (direct or pivot).
    func installedPairs() async throws -> [LanguagePair]

    /// Whether `source → target` can be translated now.
    func isInstalled(from source: LanguageCode, to target: LanguageCode) async throws -> Bool

    /// What is installed now, as a check that asks nothing more of the backend: planning an
    /// installation tries several pivots, which would otherwise be one request each on a server.
    func installedSnapshot() async throws -> @Sendable (LanguageCode, LanguageCode) -> Bool

    /// The most likely language of `text`, or nil.
    func detect(_ text: String) async throws -> LanguageCode?

    /// Called after packages were installed on this machine, so new pairs are seen.
    func reload() async throws

    /// Where missing pairs would have to be installed.
    var location: InstallLocation { get }
}

/// Where a pair's packages are installed.
enum InstallLocation: Sendable, Equatable {
    /// This machine: `prepareTranslation()` may install them.
    case thisMachine
    /// A Glossa server: only its administrator can.
    case server(String)
}
