import TranslationCore
import TranslationService

/// The languages DeepL's endpoints list and accept, in DeepL's spellings.
struct DeepLCatalog {
    let served: ServedLanguages

    init(_ served: ServedLanguages) { self.served = served }

    /// Whether some route translates from `language`.
    func isSource(_ language: LanguageCode) -> Bool { served.isSource(language) }

    /// Whether some route translates into `language`.
    func isTarget(_ language: LanguageCode) -> Bool { served.isTarget(language) }

    /// `(code, name)` of every source (or target) language, sorted by code; the English,
    /// Portuguese and Chinese targets by variant (`EN-GB`, `EN-US`, …).
    func list(targets: Bool) -> [(code: String, name: String)] {
        var seen = Set<String>()
        var out: [(code: String, name: String)] = []
        for language in served.listed where targets ? isTarget(language) : isSource(language) {
            let entries = targets ? DeepLCodes.targets(language) : [(DeepLCodes.source(language), language.base.displayName())]
            for entry in entries where seen.insert(entry.0).inserted { out.append(entry) }
        }
        return out.sorted { $0.code < $1.code }
    }
}
