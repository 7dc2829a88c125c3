import TranslationCore

/// The Apertium language pairs Debian packages (bookworm/trixie), so that a pair Glossa could
/// install is ``LanguageAvailability/Status/supported`` rather than unsupported.
///
/// Names are the real packages (checked with `apt-cache search apertium-`); transitional dummy
/// packages (`apertium-en-es` → `apertium-eng-spa`) are left out. Directions follow the pairs'
/// released modes; after installation the engine's own mode discovery is what counts, and
/// `prepareTranslation()` says so if a package did not bring the direction asked for.
struct PairCatalogue: Sendable {
    /// One Debian package and the directions it brings.
    struct Entry: Sendable, Equatable {
        /// The Debian package name.
        var package: String
        /// The directions its modes translate.
        var pairs: [LanguagePair]
    }

    /// The entries.
    let entries: [Entry]

    /// The packaged Apertium pairs.
    static let debian = PairCatalogue(entries: [
        both("apertium-afr-nld", "af", "nl"), both("apertium-arg-cat", "an", "ca"),
        both("apertium-bel-rus", "be", "ru"), one("apertium-br-fr", "br", "fr"),
        both("apertium-cat-ita", "ca", "it"), both("apertium-cat-srd", "ca", "sc"),
        both("apertium-dan-nor", "da", "no"), both("apertium-en-gl", "en", "gl"),
        both("apertium-eng-cat", "en", "ca"), both("apertium-eng-spa", "en", "es"),
        one("apertium-eo-ca", "ca", "eo"), one("apertium-eo-en", "en", "eo"),
        one("apertium-eo-es", "es", "eo"), one("apertium-eo-fr", "fr", "eo"),
        both("apertium-es-gl", "es", "gl"), both("apertium-es-pt", "es", "pt"),
        both("apertium-es-ro", "es", "ro"), one("apertium-eu-en", "eu", "en"),
        one("apertium-eu-es", "eu", "es"), both("apertium-fr-es", "fr", "es"),
        both("apertium-fra-cat", "fr", "ca"), both("apertium-fra-frp", "fr", "frp"),
        both("apertium-hbs-eng", "hbs", "en"), both("apertium-hbs-mkd", "hbs", "mk"),
        both("apertium-hbs-slv", "hbs", "sl"), both("apertium-ind-zlm", "id", "ms"),
        one("apertium-isl-eng", "is", "en"), both("apertium-isl-swe", "is", "sv"),
        both("apertium-mkd-bul", "mk", "bg"), both("apertium-mkd-eng", "mk", "en"),
        both("apertium-nno-nob", "nn", "nb"), both("apertium-oc-ca", "oc", "ca"),
        both("apertium-oc-es", "oc", "es"), both("apertium-oci-fra", "oc", "fr"),
        both("apertium-pol-szl", "pl", "szl"), both("apertium-por-cat", "pt", "ca"),
        both("apertium-pt-gl", "pt", "gl"), both("apertium-rus-ukr", "ru", "uk"),
        both("apertium-spa-arg", "es", "an"), both("apertium-spa-ast", "es", "ast"),
        both("apertium-spa-cat", "es", "ca"), both("apertium-spa-ita", "es", "it"),
        both("apertium-srd-ita", "sc", "it"), both("apertium-swe-dan", "sv", "da"),
        both("apertium-swe-nor", "sv", "no"), both("apertium-urd-hin", "ur", "hi"),
    ])

    /// The package that brings `source → target` directly, if any.
    func package(from source: LanguageCode, to target: LanguageCode) -> String? {
        entries.first { entry in
            entry.pairs.contains { $0.source.serves(source) && $0.target.serves(target) }
        }?.package
    }

    /// Every language some package translates from or into.
    var languages: Set<LanguageCode> {
        Set(entries.flatMap { $0.pairs.flatMap { [$0.source, $0.target] } })
    }

    private static func both(_ package: String, _ a: String, _ b: String) -> Entry {
        let pair = LanguagePair(source: LanguageCode(language: a), target: LanguageCode(language: b))
        return Entry(package: package, pairs: [pair, pair.reversed])
    }

    private static func one(_ package: String, _ source: String, _ target: String) -> Entry {
        Entry(package: package, pairs: [LanguagePair(source: LanguageCode(language: source), target: LanguageCode(language: target))])
    }
}
