/// A language, as it travels inside Glossa.
///
/// Every spelling that clients and engines use is parsed into this one value at the edge and
/// converted back at the other edge:
/// - BCP-47: `en`, `en-US`, `pt-BR`, `zh-Hant-TW`, `ca-valencia`
/// - ISO 639-1, 639-2 (T and B) and 639-3: `en`, `eng`, `spa`, `fre`, `nob`
/// - Google's legacy codes: `iw`, `jw`, `zh-CN`, `zh-TW`
/// - Apertium's, exactly as Apertium writes them: `eng_US`, `cat_valencia`, `pt_BR`, `hbs`,
///   `zlm`, `nno_e`, `oci_aran`, `por_PTpre1990`
///
/// ```swift
/// let code = try LanguageCode(parsing: "eng_US")
/// code.bcp47          // "en-US"
/// code.apertiumCode   // "eng_US"
/// code.googleCode     // "en-US"
/// ```
///
/// Canonical form (the invariant every comparison relies on): `language` is the shortest ISO 639
/// code that exists for the language (639-1 when there is one, else 639-3), lower-case; `script`
/// is title-case (`Hant`); `region` is upper-case (`US`) or a UN M.49 number; `variants` are
/// lower-case. Two spellings of one language therefore compare equal. (A code parsed from
/// Apertium's spelling also remembers that spelling, to give it back in ``apertiumCode``; it is
/// no part of the value's identity.)
public struct LanguageCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// ISO 639 language: 639-1 when the language has one (`en`), else 639-3 (`ast`, `hbs`).
    public let language: String
    /// ISO 15924 script, title-case (`Hant`, `Latn`), when it was given.
    public let script: String?
    /// ISO 3166 region, upper-case (`US`, `BR`), when it was given.
    public let region: String?
    /// Variant subtags, lower-case (`valencia`, `iec2017`), in the order given.
    public let variants: [String]
    /// What followed the language in Apertium's own spelling (`_PTpre1990`, `_e`), when the code
    /// was parsed from it; `apertiumCode` gives it back unchanged.
    private var apertiumTail: String?

    /// Makes a code from parts that are already known to be valid; normalises their case.
    public init(language: String, script: String? = nil, region: String? = nil, variants: [String] = []) {
        self.language = LanguageTables.shortestCode(for: language.lowercased())
        self.script = script.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        self.region = region?.uppercased()
        self.variants = variants.map { $0.lowercased() }
    }

    /// Parses any spelling Glossa accepts (see the type's documentation).
    /// - Throws: ``TranslationError`` `.invalidLanguage` naming what was given and what is accepted,
    ///   when the text is malformed or names no known language.
    public init(parsing text: String) throws {
        self = try LanguageCodeParser.parse(text)
    }

    /// The language alone, without script, region or variants (`en-US` → `en`).
    public var base: LanguageCode { LanguageCode(language: language) }

    /// Whether this code carries nothing beyond the language.
    public var isBase: Bool { script == nil && region == nil && variants.isEmpty }

    /// BCP-47 spelling: `en`, `en-US`, `zh-Hant-TW`, `ca-valencia`. Variants that BCP-47 cannot
    /// write in place (shorter than 5 characters: Apertium's `uni`, `e`, `aran`) go, with every
    /// variant after them, into the private-use part: `ca-valencia-x-uni`, `nn-x-e`, `oc-x-aran`.
    public var bcp47: String {
        ([language] + subtagsAfterLanguage).joined(separator: "-")
    }

    /// The variants as BCP-47 writes them: in place while they are valid variant subtags, then
    /// `x` and the rest as private use.
    private var variantSubtags: [String] {
        let inPlace = variants.prefix { Self.isBCP47Variant($0) }
        let privateUse = variants.dropFirst(inPlace.count)
        return inPlace + (privateUse.isEmpty ? [] : ["x"] + privateUse)
    }

    /// BCP-47's variant subtag: 5 to 8 alphanumerics, or 4 starting with a digit (`1996`).
    static func isBCP47Variant(_ subtag: String) -> Bool {
        (5...8).contains(subtag.count) || (subtag.count == 4 && subtag.first?.isNumber == true)
    }

    /// ISO 639-3 code of the language (`eng`, `spa`, `nob`); the 639-1 code when none is known.
    public var iso639_3: String { LanguageTables.alpha3(for: language) }

    /// Apertium's spelling: 639-3 language, then `_REGION` and `_variant`s (`eng_US`, `cat_valencia`);
    /// for a code parsed from Apertium's spelling, that spelling after the language, unchanged
    /// (`por_PTpre1990`, `nno_e`), as APy lists it.
    public var apertiumCode: String {
        iso639_3 + (apertiumTail ?? ([region].compactMap { $0 } + variants).map { "_" + $0 }.joined())
    }

    /// The same value, remembering Apertium's spelling of what follows the language.
    func spelledForApertium(_ tail: String) -> LanguageCode {
        var copy = self
        copy.apertiumTail = tail.isEmpty ? nil : tail
        return copy
    }

    /// Google v2's spelling: lower-case BCP-47 language with region; Chinese scripts become
    /// `zh-CN` / `zh-TW` as Google's language list has them.
    public var googleCode: String {
        if language == "zh" {
            if script == "Hant" || (script == nil && (region == "TW" || region == "HK" || region == "MO")) {
                return "zh-TW"
            }
            return "zh-CN"
        }
        let google = LanguageTables.legacyGoogle[language] ?? language
        return ([google] + [region].compactMap { $0 } + variantSubtags).joined(separator: "-")
    }

    public var description: String { bcp47 }

    /// The order of the BCP-47 spellings, compared subtag by subtag rather than by building
    /// both strings (sorting pairs this way was most of a short request's own work, callgrind):
    /// the same order, because the `-` between subtags sorts before every character a subtag holds.
    public static func < (lhs: LanguageCode, rhs: LanguageCode) -> Bool {
        if lhs.language != rhs.language { return lhs.language < rhs.language }
        return lhs.subtagsAfterLanguage.lexicographicallyPrecedes(rhs.subtagsAfterLanguage)
    }

    /// Script, region and variants as ``bcp47`` writes them after the language.
    private var subtagsAfterLanguage: [String] {
        isBase ? [] : [script, region].compactMap { $0 } + variantSubtags
    }

    // Identity is the canonical parts only; Apertium's remembered spelling is not compared.
    public static func == (lhs: LanguageCode, rhs: LanguageCode) -> Bool {
        lhs.language == rhs.language && lhs.script == rhs.script && lhs.region == rhs.region && lhs.variants == rhs.variants
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(language)
        hasher.combine(script)
        hasher.combine(region)
        hasher.combine(variants)
    }
}

extension LanguageCode: Codable {
    /// Decodes from any accepted spelling; encodes as BCP-47.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try LanguageCode(parsing: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bcp47)
    }
}

extension LanguageCode: ExpressibleByStringLiteral {
    /// A literal must be a valid code; an invalid literal is a programming error and traps.
    public init(stringLiteral value: String) {
        do { self = try LanguageCode(parsing: value) } catch { preconditionFailure("\(error)") }
    }
}

extension LanguageCode {
    /// `und`, ISO 639's "undetermined": how Google and the Glossa protocols name the source of a
    /// text that has no language in it (digits, symbols, emoji, a URL).
    public static let undetermined: LanguageCode = "und"
}
