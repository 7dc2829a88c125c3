/// Parses the spellings `LanguageCode` accepts. Kept apart from the type so the grammar is in
/// one screenful: `lang[(-|_)Script][(-|_)REGION][(-|_)variant]*[-x-private…]`.
///
/// Apertium's codes are data written by Apertium's packagers, and every one of them must parse as
/// written (`zlm`, `nno_e`, `oci_aran`, `por_PTpre1990`, `cat_valencia_uni`), so the grammar
/// below is BCP-47's, widened where Apertium's spelling needs it:
/// - after `_`, a lower-case four-letter subtag is a variant (`oci_aran` is Aranese, not the
///   Nastaliq script `Aran`): Apertium and ICU write scripts title-case (`zh_Hant`);
/// - after `_`, two capitals fused with a lower-case tail are a region and a variant
///   (`PTpre1990`: Portugal, before the 1990 orthography);
/// - a variant may have 1 to 8 characters (`e`, `uni`); BCP-47 writes the short ones as private
///   use (`nn-x-e`), which parses back to the same value.
enum LanguageCodeParser {
    /// What an error message lists as accepted, so every caller says the same thing.
    static let acceptedForms =
        "ISO 639-1/-2/-3 codes (en, eng, spa), BCP-47 tags (en-US, pt-BR, zh-Hant-TW), "
        + "Google codes (iw, zh-CN, zh-TW) and Apertium codes (eng_US, cat_valencia)"

    /// The longest code accepted, in what was given and in its BCP-47 form.
    static let maxLength = 64

    static func parse(_ text: String) throws -> LanguageCode {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw TranslationError.invalidLanguage(text, reason: "the language code is empty")
        }
        guard trimmed.utf8.count <= maxLength,
              trimmed.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else {
            throw TranslationError.invalidLanguage(text, reason: "a language code has only ASCII letters, digits, '-' and '_'")
        }
        if let legacy = LanguageTables.legacyTags[trimmed.lowercased().replacingUnderscores()] {
            return legacy
        }
        var subtags = split(trimmed)
        guard subtags.allSatisfy({ !$0.text.isEmpty }) else {
            throw TranslationError.invalidLanguage(text, reason: "it has an empty subtag")
        }
        let first = subtags.removeFirst().text.lowercased()
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
        var privateUse = false
        for subtag in subtags {
            let s = subtag.text
            let isLetters = s.allSatisfy(\.isLetter)
            let isDigits = s.allSatisfy(\.isNumber)
            let noVariantYet = variants.isEmpty && !privateUse
            if privateUse || (s.count == 1 && s.lowercased() == "x") {
                // BCP-47 private use: every later subtag (1 to 8 characters) is a variant.
                guard privateUse else { privateUse = true; continue }
                guard (1...8).contains(s.count) else {
                    throw TranslationError.invalidLanguage(text, reason: "'\(s)' is longer than a private-use subtag (8 characters)")
                }
                variants.append(s)
            } else if script == nil, region == nil, noVariantYet, s.count == 4, isLetters,
                      !(subtag.afterUnderscore && s == s.lowercased()) {
                script = s
            } else if region == nil, noVariantYet, (s.count == 2 && isLetters) || (s.count == 3 && isDigits) {
                region = s
            } else if region == nil, noVariantYet, subtag.afterUnderscore, let (r, v) = fusedRegion(s) {
                region = r
                variants.append(v)
            } else if (1...8).contains(s.count) {
                // BCP-47 variants are 5-8 characters (or 4 starting with a digit); Apertium also
                // uses shorter ones (`uni`, `e`), so 1...8 alphanumerics are accepted here.
                variants.append(s)
            } else {
                throw TranslationError.invalidLanguage(text, reason: "'\(s)' is not a script, region or variant subtag")
            }
        }
        if privateUse && variants.isEmpty {
            throw TranslationError.invalidLanguage(text, reason: "'x' must be followed by a private-use subtag")
        }
        let value = LanguageCode(language: language, script: script, region: region, variants: variants)
        // Google's legacy tags mean the same whichever spelling of the language comes with them:
        // `zho-TW` and `cmn-TW` are `zh-TW`, Traditional Chinese. Else `zho-TW` would be Chinese
        // of Taiwan with no script, whose BCP-47 form `zh-TW` parses to something else.
        if script == nil, variants.isEmpty, let region,
           let legacy = LanguageTables.legacyTags["\(value.language)-\(region.lowercased())"] {
            return legacy
        }
        // The limit holds for the BCP-47 form too, which can be longer than what was given (short
        // variants are written after `-x-`): every accepted code's BCP-47 form parses back.
        guard value.bcp47.utf8.count <= maxLength else {
            throw TranslationError.invalidLanguage(text, reason: "a language code has at most \(maxLength) characters, also as BCP-47 writes it")
        }
        // Apertium's spelling is kept as written so that it can be given back exactly (mode names,
        // APy's pair lists); it is never part of the value's identity.
        return trimmed.contains("_") && !trimmed.contains("-") && script == nil
            ? value.spelledForApertium(String(trimmed.dropFirst(first.count)))
            : value
    }

    /// One subtag and whether it followed an underscore (Apertium's and ICU's separator).
    private struct Subtag {
        var text: String
        var afterUnderscore: Bool
    }

    private static func split(_ text: String) -> [Subtag] {
        var out: [Subtag] = []
        var current = ""
        var underscore = false
        for ch in text {
            if ch == "-" || ch == "_" {
                out.append(Subtag(text: current, afterUnderscore: underscore))
                current = ""
                underscore = ch == "_"
            } else {
                current.append(ch)
            }
        }
        out.append(Subtag(text: current, afterUnderscore: underscore))
        return out
    }

    /// `PTpre1990` → (`PT`, `pre1990`): two capitals, then a lower-case or digit tail of 1 to 8.
    private static func fusedRegion(_ s: String) -> (String, String)? {
        let chars = Array(s)
        guard chars.count >= 3, chars.count <= 10,
              chars[0].isUppercase, chars[1].isUppercase, chars[0].isLetter, chars[1].isLetter,
              chars[2...].allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber }) else { return nil }
        return (String(chars[0...1]), String(chars[2...]))
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
