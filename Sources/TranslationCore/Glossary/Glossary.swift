/// One source term and how it must read in the translation.
public struct GlossaryEntry: Sendable, Hashable {
    /// The term as it appears in source text.
    public let source: String
    /// What the translation must say for it.
    public let target: String

    /// Makes an entry.
    public init(source: String, target: String) {
        self.source = source
        self.target = target
    }
}

/// A glossary for one direction (a DeepL v3 glossary's *dictionary*): every place a source term
/// occurs in a text, as a whole word, its translation reads the target term, and the words
/// around it are translated as usual.
///
/// How terms are found (``GlossaryMatcher``): whole words only (`cat` does not match in
/// `category`; in scripts written without spaces, such as Chinese or Japanese, anywhere); the
/// longest term wins where terms overlap; with ``ignoresCase`` false (DeepL's behaviour), a term
/// matches as written, and a term that starts with a lower-case letter also matches with that
/// letter capitalised (the start of a sentence), its target then capitalised the same way; with
/// ``ignoresCase`` true (Google's `glossaryConfig.ignoreCase`), case never matters.
public struct Glossary: Sendable, Hashable {
    /// The language of the source terms.
    public let source: LanguageCode
    /// The language of the target terms.
    public let target: LanguageCode
    /// The terms, in the order given; no two have the same source.
    public let entries: [GlossaryEntry]
    /// Whether terms match whatever their case.
    public let ignoresCase: Bool
    /// The finder, built once per glossary.
    let matcher: GlossaryMatcher
    /// Computed once: glossaries are hashed per text where translations are cached.
    private let digest: Int

    /// A glossary of `entries` for `source` → `target`.
    public init(source: LanguageCode, target: LanguageCode, entries: [GlossaryEntry], ignoresCase: Bool = false) {
        self.source = source
        self.target = target
        self.entries = entries
        self.ignoresCase = ignoresCase
        matcher = GlossaryMatcher(entries: entries, ignoresCase: ignoresCase)
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(target)
        hasher.combine(entries)
        hasher.combine(ignoresCase)
        digest = hasher.finalize()
    }

    /// The glossary that keeps this one's target terms as they are: what a later step of a
    /// route gets, so that a term put in place by the first step is not translated again.
    public func keepingTargets(from language: LanguageCode) -> Glossary {
        var seen = Set<String>()
        let kept = entries.compactMap { entry -> GlossaryEntry? in
            seen.insert(entry.target).inserted ? GlossaryEntry(source: entry.target, target: entry.target) : nil
        }
        return Glossary(source: language, target: target, entries: kept, ignoresCase: ignoresCase)
    }

    /// Where terms occur in `bytes` (UTF-8), in order and not overlapping.
    public func matches(in bytes: [UInt8]) -> [ProtectedSpan] {
        matcher.matches(in: bytes)
    }

    public static func == (a: Glossary, b: Glossary) -> Bool {
        a.digest == b.digest && a.source == b.source && a.target == b.target
            && a.ignoresCase == b.ignoresCase && a.entries == b.entries
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}
