import Foundation

/// The tables behind code conversion. Foundation's ICU data does most of the work (639-1 ↔ 639-3,
/// display names); these tables add what ICU lacks: legacy Google codes, Apertium-only codes and
/// individual-language codes that clients send for a macrolanguage.
enum LanguageTables {
    /// Whole tags that mean something other than their parts: Google's legacy spellings.
    static let legacyTags: [String: LanguageCode] = [
        "zh-cn": LanguageCode(language: "zh", script: "Hans"),
        "zh-sg": LanguageCode(language: "zh", script: "Hans"),
        "zh-tw": LanguageCode(language: "zh", script: "Hant"),
        "zh-hk": LanguageCode(language: "zh", script: "Hant"),
    ]

    /// Deprecated or individual-language codes, mapped to the code Glossa uses.
    static let aliases: [String: String] = [
        "iw": "he", "ji": "yi", "in": "id", "jw": "jv", "mo": "ro",
        "arb": "ar", "zsm": "ms", "cmn": "zh", "pes": "fa", "nor": "no",
        // Serbo-Croatian's 639-1 code, withdrawn in 2000 and still sent by APy's clients (`sh|eng`).
        "sh": "hbs",
        // ISO 639-2/B (bibliographic) codes, which ICU does not convert.
        "alb": "sq", "arm": "hy", "baq": "eu", "bur": "my", "chi": "zh", "cze": "cs", "dut": "nl",
        "fre": "fr", "geo": "ka", "ger": "de", "gre": "el", "ice": "is", "mac": "mk", "mao": "mi",
        "may": "ms", "per": "fa", "rum": "ro", "slo": "sk", "tib": "bo", "wel": "cy",
    ]

    /// Languages that engines use but ICU has no data for, with their English names.
    static let extraLanguages: [String: String] = [
        "hbs": "Serbo-Croatian",
        // Malay as an individual language (Apertium's `ind-zlm`); ICU knows only the macrolanguage.
        "zlm": "Malay",
    ]

    /// Google v2 still lists these languages under their withdrawn ISO codes.
    static let legacyGoogle: [String: String] = ["he": "iw", "jv": "jw"]

    private static let icuCodes: Set<String> = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))

    static func isKnown(_ code: String) -> Bool {
        if icuCodes.contains(code) || extraLanguages[code] != nil { return true }
        if code.count == 3, Locale.LanguageCode(code).identifier(.alpha2) != nil { return true }
        return Locale(identifier: "en").localizedString(forLanguageCode: code) != nil
    }

    /// 639-1 when one exists for `code`, else `code` itself.
    static func shortestCode(for code: String) -> String {
        let code = aliases[code] ?? code
        guard code.count == 3 else { return code }
        return Locale.LanguageCode(code).identifier(.alpha2) ?? code
    }

    /// 639-3 (terminology) code for `code`, or `code` itself when ICU has none.
    static func alpha3(for code: String) -> String {
        guard code.count == 2 else { return code }
        return Locale.LanguageCode(code).identifier(.alpha3) ?? code
    }
}
