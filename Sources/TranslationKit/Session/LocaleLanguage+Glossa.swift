import Foundation
import TranslationCore

/// Conversions between Apple's `Locale.Language` (the public API) and Glossa's `LanguageCode`
/// (everything below it). They happen here, at the edge, and nowhere else.
extension LanguageCode {
    /// The code for `language`: its language, script and region subtags. `Locale.Language` keeps
    /// no variants, so `ca-valencia` cannot be asked for through it.
    /// - Throws: Glossa's error when Foundation's language has no ISO 639 code Glossa knows.
    init(_ language: Locale.Language) throws {
        // Foundation fills in a language's usual script (`eo` reports `Latn`); keep a script
        // only when it is not the usual one (`sr-Latn`, `zh-Hant`), as BCP-47 tags do.
        var script = language.script?.identifier
        if let code = language.languageCode?.identifier, let script_ = script,
           Locale.Language(identifier: code).maximalIdentifier.split(separator: "-").dropFirst().first.map(String.init) == script_ {
            script = nil
        }
        let parts = [language.languageCode?.identifier, script, language.region?.identifier]
        let tag = parts.compactMap { $0 }.joined(separator: "-")
        self = try LanguageCode(parsing: tag.isEmpty ? language.minimalIdentifier : tag)
    }

    /// Foundation's language for this code (variants are dropped: `Locale.Language` has none).
    var localeLanguage: Locale.Language { Locale.Language(identifier: bcp47) }
}

extension Locale.Language {
    /// The user's preferred language: the first of `Locale.preferredLanguages`, else English.
    static var userPreferred: Locale.Language {
        Locale.Language(identifier: Locale.preferredLanguages.first ?? "en")
    }
}
