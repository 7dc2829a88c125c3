/// Whether, and how well, a language code on offer (an engine's pair, a served language, an
/// installed pair) serves a code someone asked for. The one matching rule of Glossa: the
/// service's router ranks routes by it, the server checks requested languages with it, and the
/// SDK decides what is installed with it.
///
/// | offered → wanted                         | score | why                                          |
/// | ---------------------------------------- | ----- | -------------------------------------------- |
/// | `pt-BR` → `pt-BR`                        | 100   | exact spelling                               |
/// | `es` → `es-MX`                           | 50    | a base form serves any regional request      |
/// | `zh-Hant` → `zh`                         | 40    | same region and variants (none), one script  |
/// | `pt-BR` → `pt`                           | 9     | a variant serves a base request, last resort |
/// | `pt-BR` → `pt-PT`, `zh-Hans` → `zh-Hant` | nil   | another region or variant; another script    |
extension LanguageCode {
    /// How well `self`, an offered code, serves a request for `wanted`; nil when it does not
    /// serve it at all. Higher is better: exact spelling scores 100; a base-form code serves any
    /// regional or variant request (`es` for `es-MX`: 50); a code with the same region and
    /// variants (a script only, `zh-Hant` for `zh`: 40); a variant code serves a base request only
    /// as a last resort, less the more it adds (`pt-BR` for `pt`: 9, `pt-PT-pre1990` for `pt`: 8).
    ///
    /// Never across languages, and never across scripts: Chinese (and Serbian) scripts are
    /// different written languages, so `zh-Hans` text is no answer to a `zh-Hant` request. A
    /// variant never serves a sibling (`pt-BR` for `pt-PT`, `ca-valencia-x-uni` for
    /// `ca-valencia`): only a code at least as general does.
    public func matchScore(for wanted: LanguageCode) -> Int? {
        if self == wanted { return 100 }
        guard language == wanted.language else { return nil }
        if let offered = script, let asked = wanted.script, offered != asked { return nil }
        if isBase { return 50 }
        if region == wanted.region, variants == wanted.variants { return 40 }
        // Scores stay below every exact, base-form and same-region fit above (at most 10 here).
        if wanted.isBase { return 10 - variants.count - (region == nil ? 0 : 1) }
        return nil
    }

    /// Whether `self`, an offered code, serves a request for `wanted` at all
    /// (``matchScore(for:)`` is not nil).
    ///
    /// Over a list that holds each code's base form too (as the service's language and
    /// direction lists do), a list serves `wanted` exactly when it has a code of the same
    /// language in a script that does not conflict with `wanted`'s: the base form serves it.
    public func serves(_ wanted: LanguageCode) -> Bool {
        matchScore(for: wanted) != nil
    }
}
