/// What a workflow written above the engines needs from the translation service: the language
/// of a text, and texts translated along the service's routes. `TranslationService` is the
/// implementation; the document workflow (`Documents`' `DocumentTranslation`)
/// is written against this protocol because Documents, a format library, does not depend on
/// the service (Package.swift), and so that its tests can hand it a fake.
public protocol TextTranslating: Sendable {
    /// The most likely language of `text`, or nil when it has none (digits, emoji, a URL).
    func language(of text: String) async -> LanguageCode?

    /// `texts` translated from `source` into `target`, one per input, in order.
    /// - Throws: ``TranslationError`` (no route, limits, engine failures).
    func translateTexts(_ texts: [String], from source: LanguageCode, to target: LanguageCode,
                        options: TranslationOptions) async throws -> [String]
}
