import TranslationCore
import TranslationService

/// The languages the service translates, as language lists show them and as requests are
/// checked against them: a source is a language some route starts from, a target one some
/// route ends in (pivots included).
struct ServedLanguages {
    /// Every direction, direct and through a pivot.
    let routes: [Route]
    /// The languages to list: engine-internal variants (`ca-valencia-uni-iec2017`) would list as
    /// a row of identical "Catalan"s, so a variant is kept only when it has a name of its own.
    let listed: [LanguageCode]

    init(_ service: TranslationService) {
        routes = service.routes()
        listed = service.languages().filter { $0.variants.isEmpty || $0.displayName() != $0.base.displayName() }
    }

    /// Whether some route translates from `language`.
    func isSource(_ language: LanguageCode) -> Bool { routes.contains { Self.covers($0.source, language) } }

    /// Whether some route translates into `language`.
    func isTarget(_ language: LanguageCode) -> Bool { routes.contains { Self.covers($0.target, language) } }

    /// Whether a served language `offered` can answer a request for `wanted`: same language, no
    /// conflicting script (zh-Hans is not zh-Hant). Regions and variants are the router's to pick.
    static func covers(_ offered: LanguageCode, _ wanted: LanguageCode) -> Bool {
        guard offered.language == wanted.language else { return false }
        if let a = offered.script, let b = wanted.script, a != b { return false }
        return true
    }
}
