import Foundation

extension LanguageCode {
    /// The language's name in `displayLanguage`, from Foundation's locale data
    /// (`en` shown in `es` is `inglés`). Falls back to English, then to the code itself, so a
    /// name is never empty.
    public func displayName(in displayLanguage: LanguageCode = "en") -> String {
        let locale = Locale(identifier: displayLanguage.bcp47)
        if let name = locale.localizedString(forIdentifier: icuIdentifier), !name.isEmpty, name != icuIdentifier {
            return name
        }
        if let name = locale.localizedString(forLanguageCode: language), name != language {
            return name
        }
        return LanguageTables.extraLanguages[language] ?? bcp47
    }

    /// ICU spells variants upper-case after an underscore; scripts and regions as BCP-47 does.
    private var icuIdentifier: String {
        ([language] + [script, region].compactMap { $0 }).joined(separator: "_")
            + variants.map { "_" + $0.uppercased() }.joined()
    }
}
