import TranslationCore

/// The `target_lang` and optional `source_lang` of a DeepL request, refused in DeepL's order.
///
/// Two questions, asked at different times. Whether each code names a language at all is asked
/// first, target before source, as DeepL checks them (deepl-mock `index.js`: `handleTranslate`
/// and `handleDocument` read `target_lang`, then `source_lang`). Whether this server translates
/// between them (``checkServed(by:)``) is asked only after the rest of the request has been
/// checked: a request that DeepL itself would refuse (a made-up `source_lang`, an invalid option,
/// a file of no known type) then hears DeepL's own reason, whatever engines this server has
/// installed, and only a request DeepL would accept hears what this server lacks.
struct DeepLLanguageChoice {
    var target: LanguageCode
    /// nil: detect the source.
    var source: LanguageCode?

    /// - Throws: ``APIError`` `Value for 'target_lang' not supported.` (or `source_lang`) for a
    ///   code that names no language; `Parameter 'target_lang' not specified.` without a target.
    init(_ p: Parameters) throws {
        guard let targetText = p.last("target_lang"), !targetText.isEmpty else { throw APIError.missingParameter("target_lang") }
        guard let target = DeepLCodes.language(targetText) else { throw Self.unsupported("target_lang") }
        self.target = target
        if let sourceText = p.last("source_lang"), !sourceText.isEmpty {
            // Sources are base languages in DeepL (`EN`); a variant given anyway names its base.
            guard let source = DeepLCodes.language(sourceText) else { throw Self.unsupported("source_lang") }
            self.source = source.base
        }
    }

    /// Refuses a target, then a source, that no installed route serves, in DeepL's words.
    func checkServed(by catalog: DeepLCatalog) throws {
        guard catalog.isTarget(target) else { throw Self.unsupported("target_lang") }
        if let source, !catalog.isSource(source) { throw Self.unsupported("source_lang") }
    }

    /// DeepL's message for a language it does not offer.
    static func unsupported(_ name: String) -> APIError {
        .translation(TranslationError(.unsupportedPair, "Value for '\(name)' not supported."))
    }
}
