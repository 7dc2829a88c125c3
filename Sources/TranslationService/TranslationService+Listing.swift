import TranslationCore

extension TranslationService {
    /// Every listed direction with its route: direct pairs first, then pivots. The listed codes
    /// are what a caller asks for; the route's ends are the engines' own spellings of them.
    public func directions() -> [Direction] {
        table().directions
    }

    /// The route of every listed direction (each pair of route ends once), direct pairs first.
    public func routes() -> [Route] { table().routes }

    /// Every language Glossa translates from or into, base forms and engine variants.
    public func languages() -> [LanguageCode] {
        table().languages
    }

    /// ``languages()`` as a list shows them (``listable(_:)``).
    public func listedLanguages() -> [LanguageCode] { table().listedLanguages }

    /// ``targetLanguages()`` as a target list shows them (``listable(_:)``).
    public func listedTargetLanguages() -> [LanguageCode] { table().listedTargets }

    /// Languages that something translates into: the only ones a target list may offer.
    public func targetLanguages() -> [LanguageCode] {
        table().targets
    }

    /// Languages that something translates from.
    public func sourceLanguages() -> [LanguageCode] {
        table().sources
    }

    /// `codes` as a language list shows them: an engine variant only when it has a name of its
    /// own (`ca-valencia`, "Catalan (Valencian)"); internal variants that ICU names like their
    /// language (`ca-valencia-x-uni`, `ca-iec2017`) would list as a row of identical "Catalan"s
    /// and are left to `glossa pairs`. Every protocol's list and `glossa languages` use this.
    public static func listable(_ codes: [LanguageCode]) -> [LanguageCode] {
        codes.filter { $0.variants.isEmpty || $0.displayName() != $0.base.displayName() }
    }

    /// Exactly the languages `source` text can be translated into (any spelling of the source:
    /// `es-MX` reaches what `es` reaches).
    public func targets(from source: LanguageCode) -> [LanguageCode] {
        let listing = table()
        if let listed = listing.targetsBySource[source] { return listed }
        return RouteTable.routes(from: source, among: listing.targets, router: listing.router).map(\.0)
    }

    /// The refusal for a direction with no route: which side is the problem, and what is there
    /// instead (the targets the source reaches, or the languages on the missing side).
    func refusal(from source: LanguageCode, to target: LanguageCode) -> TranslationError {
        let listing = table()
        let reachable = targets(from: source)
        if reachable.isEmpty {
            return TranslationError(.unsupportedSourceLanguage,
                "No installed pair translates from \(source.displayName()) (\(source.bcp47)). Source languages available: \(Self.list(listing.sources)).")
        }
        if !listing.targets.contains(where: { $0.matchScore(for: target) != nil }) {
            return TranslationError(.unsupportedTargetLanguage,
                "No installed pair translates into \(target.displayName()) (\(target.bcp47)). Target languages available: \(Self.list(listing.targets)).")
        }
        return TranslationError(.unsupportedPair,
            "No translation from \(source.displayName()) (\(source.bcp47)) to \(target.displayName()) (\(target.bcp47)) is installed, directly or through other languages. \(source.displayName()) can be translated into: \(Self.list(reachable)).")
    }

    private static func list(_ codes: [LanguageCode]) -> String {
        let shown = codes.prefix(60).map(\.bcp47).joined(separator: ", ")
        return codes.isEmpty ? "none" : shown + (codes.count > 60 ? ", … (\(codes.count) in all)" : "")
    }
}
