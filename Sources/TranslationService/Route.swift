import TranslationCore

/// How a translation gets from source to target: one direct step, or several through pivots.
public struct Route: Sendable, Equatable, CustomStringConvertible {
    /// One engine call: a direct pair on a named engine.
    public struct Step: Sendable, Equatable {
        /// The pair as the engine names it (the engine's own variant, e.g. `es→pt-BR`).
        public var pair: LanguagePair
        /// The engine that translates it.
        public var engine: String
        /// Its position in the service's engine list (names need not be unique).
        var engineIndex: Int
    }

    /// The steps in order; one for a direct route, more through pivots.
    public var steps: [Step]

    /// Where the route starts.
    public var source: LanguageCode { steps[0].pair.source }
    /// Where the route ends.
    public var target: LanguageCode { steps[steps.count - 1].pair.target }
    /// Whether the route goes through a pivot language.
    public var isPivot: Bool { steps.count > 1 }
    /// The languages visited, source first (`[es, en, pt]`).
    public var path: [LanguageCode] { [steps[0].pair.source] + steps.map(\.pair.target) }
    /// The languages in between (`[en]` for es → en → pt); empty when direct.
    public var pivots: [LanguageCode] { Array(path.dropFirst().dropLast()) }

    public var description: String { path.map(\.bcp47).joined(separator: " → ") }
}

/// A direction listed for users: what was asked (`source`, `target`, as the lists name them) and
/// the route that serves it (whose ends may be the engines' own spellings, e.g. `eng → spa`).
public struct Direction: Sendable, Equatable {
    /// The source language as listed.
    public var source: LanguageCode
    /// The target language as listed.
    public var target: LanguageCode
    /// The route that translates it.
    public var route: Route
}

/// A pair with the engine that serves it, as the router sees them.
struct ServedPair: Sendable, Equatable {
    var pair: LanguagePair
    var engineIndex: Int
}
