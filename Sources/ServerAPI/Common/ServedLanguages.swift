import Synchronization
import TranslationCore
import TranslationService

/// The languages the service translates, as language lists show them and as requests are
/// checked against them: a source is a language some route starts from, a target one some
/// route ends in (pivots included).
struct ServedLanguages: Sendable {
    /// Every direction, direct and through a pivot.
    let routes: [Route]
    /// The languages to list: engine-internal variants (`ca-valencia-uni-iec2017`) would list as
    /// a row of identical "Catalan"s, so a variant is kept only when it has a name of its own.
    let listed: [LanguageCode]
    private let sources: [LanguageCode]
    private let targets: [LanguageCode]

    init(_ service: TranslationService) {
        routes = service.routes()
        listed = Self.listed(service)
        sources = Array(Set(routes.map(\.source)))
        targets = Array(Set(routes.map(\.target)))
    }

    /// The languages to list, without computing the routes.
    static func listed(_ service: TranslationService) -> [LanguageCode] {
        service.languages().filter { $0.variants.isEmpty || $0.displayName() != $0.base.displayName() }
    }

    /// Whether some route translates from `language`.
    func isSource(_ language: LanguageCode) -> Bool { sources.contains { Self.covers($0, language) } }

    /// Whether some route translates into `language`.
    func isTarget(_ language: LanguageCode) -> Bool { targets.contains { Self.covers($0, language) } }

    /// Whether a served language `offered` can answer a request for `wanted`: same language, no
    /// conflicting script (zh-Hans is not zh-Hant). Regions and variants are the router's to pick.
    static func covers(_ offered: LanguageCode, _ wanted: LanguageCode) -> Bool {
        guard offered.language == wanted.language else { return false }
        if let a = offered.script, let b = wanted.script, a != b { return false }
        return true
    }
}

/// ``ServedLanguages`` computed once, on first use, and shared by the dialects that need it.
///
/// Why cached: `TranslationService.routes()` walks every pivot (seconds with all Debian pairs
/// installed, measured 4 s in a debug build), and the service reads its engines' pairs once at
/// start, so its routes do not change while it runs. If routes ever change at run time, this is
/// the one place to refresh.
final class ServedLanguagesCache: Sendable {
    private let service: TranslationService
    private let value = Mutex<ServedLanguages?>(nil)

    init(service: TranslationService) { self.service = service }

    /// The languages, computed on the first call.
    func get() -> ServedLanguages {
        if let cached = value.withLock({ $0 }) { return cached }
        // Computed outside the lock so a slow first call does not hold up the others' reads;
        // two first calls at once both compute the same value.
        let computed = ServedLanguages(service)
        value.withLock { $0 = $0 ?? computed }
        return computed
    }
}
