import TranslationCore

/// DeepL's language codes: upper-case, case-insensitive in requests; sources are base languages
/// (`EN`), targets name English, Portuguese and Chinese by variant (`EN-GB`, `EN-US`, `PT-PT`,
/// `PT-BR`, `ZH-HANS`, `ZH-HANT`), with the bare `EN`, `PT` and `ZH` still accepted.
enum DeepLCodes {
    /// A source language's code (`EN`, `ZH`).
    static func source(_ language: LanguageCode) -> String { language.language.uppercased() }

    /// The target codes (with DeepL's names) a served target language is listed under.
    static func targets(_ language: LanguageCode) -> [(code: String, name: String)] {
        switch language.language {
        case "en": return [("EN-GB", "English (British)"), ("EN-US", "English (American)")]
        case "pt": return [("PT-BR", "Portuguese (Brazilian)"), ("PT-PT", "Portuguese (European)")]
        case "zh":
            return language.script == "Hant" ? [("ZH-HANT", "Chinese (traditional)")] : [("ZH-HANS", "Chinese (simplified)")]
        default: return [(language.language.uppercased(), language.base.displayName())]
        }
    }

    /// The language a request code names (`EN-GB`, `pt-br`, `ZH-HANT`, `de`), nil when none.
    static func language(_ code: String) -> LanguageCode? { try? LanguageCode(parsing: code) }
}
