import Synchronization
import TranslationCore
import TranslationService

/// The languages the service translates, as language lists show them and as requests are
/// checked against them: a source is a language some route starts from, a target one some
/// route ends in (pivots included), as the service's route table lists them.
struct ServedLanguages: Sendable {
    /// Every direction, direct and through pivots.
    let routes: [Route]
    /// The languages to list (``TranslationService/listable(_:)``): engine-internal variants
    /// (`ca-valencia-x-uni`) would list as a row of identical "Catalan"s, so a variant is kept
    /// only when it has a name of its own.
    let listed: [LanguageCode]
    private let sources: [LanguageCode]
    private let targets: [LanguageCode]
    private let service: TranslationService

    init(_ service: TranslationService) {
        self.service = service
        routes = service.routes()
        listed = Self.listed(service)
        sources = service.sourceLanguages()
        targets = service.targetLanguages()
    }

    /// The languages to list, without computing the routes.
    static func listed(_ service: TranslationService) -> [LanguageCode] {
        service.listedLanguages()
    }

    /// Exactly the languages `language` can be translated into.
    func targets(from language: LanguageCode) -> [LanguageCode] { service.targets(from: language) }

    /// Whether some route translates from `language`, by the router's rule
    /// (``LanguageCode/serves(_:)``). The lists hold every code's base form (`pt` beside `pt-BR`),
    /// so a request is covered when a code of its language in a script that does not conflict is
    /// listed; regions and variants are the router's to pick.
    func isSource(_ language: LanguageCode) -> Bool { sources.contains { $0.serves(language) } }

    /// Whether some route translates into `language`.
    func isTarget(_ language: LanguageCode) -> Bool { targets.contains { $0.serves(language) } }
}

/// ``ServedLanguages`` computed once per set of working pairs, and shared by the dialects that
/// need it.
///
/// Why cached: building it walks every route (the service keeps its route table, but the lists
/// derived here are copied out of it), and the working pairs change only when a probe finds a
/// broken one: ``TranslationService/routingGeneration`` says when to derive it again.
final class ServedLanguagesCache: Sendable {
    private let service: TranslationService
    private let value = Mutex<(generation: Int, languages: ServedLanguages)?>(nil)

    init(service: TranslationService) { self.service = service }

    /// The languages for the service's current working pairs.
    func get() -> ServedLanguages {
        let generation = service.routingGeneration
        if let cached = value.withLock({ $0 }), cached.generation == generation { return cached.languages }
        // Computed outside the lock so a slow first call does not hold up the others' reads;
        // two first calls at once both compute the same value.
        let computed = ServedLanguages(service)
        value.withLock { $0 = (generation, computed) }
        return computed
    }
}
