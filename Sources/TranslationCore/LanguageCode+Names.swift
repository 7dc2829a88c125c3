import Foundation

extension LanguageCode {
    /// The language's name in `displayLanguage`, from Foundation's locale data
    /// (`en` shown in `es` is `inglés`), with every subtag named, so that two codes never share a
    /// name: `ca-valencia` is "Catalan (Valencian)", `hbs-HR` "Serbo-Croatian (Croatian)",
    /// Apertium's Aranese "Occitan (Aranese)". What ICU does not know comes from
    /// ``LanguageTables`` (in English), else the subtag itself. Never empty.
    public func displayName(in displayLanguage: LanguageCode = "en") -> String {
        let locale = Locale(identifier: displayLanguage.bcp47)
        let parts = NameParts(self)
        var name = locale.localizedString(forIdentifier: parts.icuIdentifier).flatMap { $0.isEmpty || $0 == parts.icuIdentifier ? nil : $0 }
            ?? Self.languageName(language, in: locale)
        let extra = parts.unnamed.map { $0.name(in: locale) }
        guard !extra.isEmpty else { return name }
        // Inside ICU's own parentheses when it wrote some ("Catalan (Valencian, IEC 2017)").
        if let close = name.last, close == ")" || close == "）" {
            name.removeLast()
            return name + ", " + extra.joined(separator: ", ") + String(close)
        }
        return name + " (" + extra.joined(separator: ", ") + ")"
    }

    /// The name of a bare language code: ICU's (under the code ICU files it by), else the
    /// English name from ``LanguageTables/extraLanguages``, else the code.
    static func languageName(_ code: String, in locale: Locale) -> String {
        let icu = LanguageTables.icuLanguage[code] ?? code
        if let name = locale.localizedString(forLanguageCode: icu), !name.isEmpty, name != icu { return name }
        return LanguageTables.extraLanguages[code] ?? code
    }
}

/// A code split into what ICU can name (its identifier) and what it cannot (named here).
private struct NameParts {
    /// A subtag ICU has no name for in this role.
    enum Unnamed {
        /// A region that stands for a standard of the language (`hbs_HR`: Croatian).
        case standard(String)
        /// A variant ICU does not know (`aran`, `iec2017`).
        case variant(String)

        func name(in locale: Locale) -> String {
            switch self {
            case .standard(let code): return LanguageCode.languageName(code, in: locale)
            case .variant(let code): return LanguageTables.variantNames[code.lowercased()] ?? code
            }
        }
    }

    let icuIdentifier: String
    let unnamed: [Unnamed]

    init(_ code: LanguageCode) {
        var unnamed: [Unnamed] = []
        var region = code.region
        if let r = region, let standard = LanguageTables.standards[code.language]?[r] {
            unnamed.append(.standard(standard))
            region = nil
        }
        // ICU names the variants it has data for (VALENCIA); asking in English is enough to know.
        let english = Locale(identifier: "en")
        var known: [String] = []
        for variant in code.variants {
            if english.localizedString(forVariantCode: variant.uppercased()) != nil { known.append(variant.uppercased()) } else { unnamed.append(.variant(variant)) }
        }
        let head = ([LanguageTables.icuLanguage[code.language] ?? code.language] + [code.script, region].compactMap { $0 }).joined(separator: "_")
        // Without a region, variants follow an empty one (`ca__VALENCIA`): `ca_VALENCIA` would be
        // read as a region, and a four-letter variant as a script (`oc_ARAN`, Nastaliq).
        icuIdentifier = known.isEmpty ? head : head + (region == nil ? "_" : "") + known.map { "_" + $0 }.joined()
        self.unnamed = unnamed
    }
}
