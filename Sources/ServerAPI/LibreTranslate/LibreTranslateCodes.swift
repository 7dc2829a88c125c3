import TranslationCore

/// LibreTranslate's language codes: ISO 639-1, lower-case, with `zh-Hans`, `zh-Hant` and `pt-BR`
/// for its models `zh`, `zt` and `pb`; requests may use either spelling, in any case
/// (LibreTranslate's `language.py` `iso2model` / `model2iso`).
enum LibreTranslateCodes {
    /// LibreTranslate's spelling of a language (`en`, `zh-Hans`, `pt-BR`; other variants as BCP-47).
    static func code(_ language: LanguageCode) -> String {
        switch language.language {
        case "zh":
            let traditional = language.script == "Hant" || (language.script == nil && ["TW", "HK", "MO"].contains(language.region ?? ""))
            return traditional ? "zh-Hant" : "zh-Hans"
        case "pt" where language.region == "BR" && language.variants.isEmpty: return "pt-BR"
        default: return language.isBase ? language.language : language.bcp47
        }
    }

    /// The language a LibreTranslate code names, nil when it names none.
    static func language(_ code: String) -> LanguageCode? {
        switch code.lowercased() {
        case "pb", "pt-br": return LanguageCode(language: "pt", region: "BR")
        case "zh", "zh-hans", "zh-cn": return LanguageCode(language: "zh", script: "Hans")
        case "zt", "zh-hant", "zh-tw": return LanguageCode(language: "zh", script: "Hant")
        default: return try? LanguageCode(parsing: code)
        }
    }

    /// LibreTranslate's confidence: a percentage rounded to a whole number, ties to even (Python's `round(p * 100)`).
    static func confidence(_ probability: Double) -> Double { (probability * 100).rounded(.toNearestOrEven) }
}
