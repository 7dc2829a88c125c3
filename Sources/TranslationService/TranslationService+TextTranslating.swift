import TranslationCore

/// The service as the workflows above it see it (documents): detection and routed translation.
extension TranslationService: TextTranslating {
    /// The language ``detect(_:format:)`` finds in `text` (as plain text), or nil.
    public func language(of text: String) async -> LanguageCode? {
        await detect([text])[0].language
    }

    /// ``translate(_:from:to:options:)`` from a known source, keeping only the translations.
    public func translateTexts(_ texts: [String], from source: LanguageCode, to target: LanguageCode,
                               options: TranslationOptions) async throws -> [String] {
        try await translate(texts, from: source, to: target, options: options).map(\.translatedText)
    }
}
