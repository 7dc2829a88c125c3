/// Parses the spellings `LanguageCode` accepts. Kept apart from the type so the grammar is in
/// one screenful: `lang[(-|_)Script][(-|_)REGION][(-|_)variant]*`.
enum LanguageCodeParser {
    /// What an error message lists as accepted, so every caller says the same thing.
    static let acceptedForms =
        "ISO 639-1/-2/-3 codes (en, eng, spa), BCP-47 tags (en-US, pt-BR, zh-Hant-TW), "
        + "Google codes (iw, zh-CN, zh-TW) and Apertium codes (eng_US, cat_valencia)"

    static func parse(_ text: String) throws -> LanguageCode {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw TranslationError.invalidLanguage(text, reason: "the language code is empty")
        }
        guard trimmed.utf8.count <= 64,
              trimmed.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else {
            throw TranslationError.invalidLanguage(text, reason: "a language code has only ASCII letters, digits, '-' and '_'")
        }
        if let legacy = LanguageTables.legacyTags[trimmed.lowercased().replacingUnderscores()] {
            return legacy
        }
        var subtags = trimmed.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map(String.init)
        guard subtags.allSatisfy({ !$0.isEmpty }) else {
            throw TranslationError.invalidLanguage(text, reason: "it has an empty subtag")
        }
        let first = subtags.removeFirst().lowercased()
        guard (2...3).contains(first.count), first.allSatisfy(\.isLetter) else {
            throw TranslationError.invalidLanguage(text, reason: "a language subtag has 2 or 3 letters")
        }
        let language = LanguageTables.aliases[first] ?? first
        guard LanguageTables.isKnown(language) else {
            throw TranslationError.invalidLanguage(text, reason: "'\(first)' is not a known ISO 639 language")
        }
        var script: String?
        var region: String?
        var variants: [String] = []
        for subtag in subtags {
            let isLetters = subtag.allSatisfy(\.isLetter)
            let isDigits = subtag.allSatisfy(\.isNumber)
            if script == nil, region == nil, variants.isEmpty, subtag.count == 4, isLetters {
                script = subtag
            } else if region == nil, variants.isEmpty, (subtag.count == 2 && isLetters) || (subtag.count == 3 && isDigits) {
                region = subtag
            } else if (3...8).contains(subtag.count) {
                // BCP-47 variants are 5-8 characters (or 4 starting with a digit); Apertium also
                // uses shorter ones such as `uni`, so 3...8 alphanumerics are accepted here.
                variants.append(subtag)
            } else {
                throw TranslationError.invalidLanguage(text, reason: "'\(subtag)' is not a script, region or variant subtag")
            }
        }
        return LanguageCode(language: language, script: script, region: region, variants: variants)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
