import TranslationCore

/// Conversions between CLD2's language codes and ``LanguageCode``: the only place that knows
/// CLD2's spellings.
enum CLD2Codes {
    /// CLD2 codes whose meaning differs from what ``LanguageCode/init(parsing:)`` reads in them.
    /// CLD2 tells Bokmål ("no", NORWEGIAN) from Nynorsk ("nn"), so its "no" is Bokmål; its "zh"
    /// is Simplified Chinese, as opposed to its "zh-Hant".
    private static let special: [String: LanguageCode] = [
        "no": "nb", "zh": LanguageCode(language: "zh", script: "Hans"), "zh-Hant": LanguageCode(language: "zh", script: "Hant"),
    ]

    /// The language of a CLD2 code; nil for "un" and for CLD2's pseudo-languages ("xx-Qaai",
    /// script-only results) that name no language.
    static func language(fromCLD2 code: String) -> LanguageCode? {
        if let known = byCode[code] { return known }
        return parse(code)
    }

    /// Every code CLD2 can answer with, read once: parsing a code costs about a microsecond,
    /// a twentieth of CLD2's own detection of a sentence, and detection asks for one per text.
    private static let byCode: [String: LanguageCode?] = {
        var table: [String: LanguageCode?] = [:]
        for code in CLD2.languageCodes { table[code] = parse(code) }
        return table
    }()

    private static func parse(_ code: String) -> LanguageCode? {
        if code == "un" || code.hasPrefix("xx") { return nil }
        if let language = special[code] { return language }
        return try? LanguageCode(parsing: code)
    }

    /// The CLD2 spelling of a language, for CLD2's hint (CLD2 parses ISO codes but spells
    /// Hebrew, Javanese, Bokmål and Traditional Chinese its own way).
    static func cld2Code(for language: LanguageCode) -> String {
        switch language.language {
        case "he": return "iw"
        case "jv": return "jw"
        case "nb": return "no"
        case "zh":
            let traditional = language.script == "Hant" || (language.script == nil && ["TW", "HK", "MO"].contains(language.region ?? ""))
            return traditional ? "zh-Hant" : "zh"
        default: return language.language
        }
    }
}
