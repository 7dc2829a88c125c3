/// A translation direction: from `source` to `target`.
public struct LanguagePair: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The language translated from.
    public let source: LanguageCode
    /// The language translated into.
    public let target: LanguageCode

    /// Makes a pair.
    public init(source: LanguageCode, target: LanguageCode) {
        self.source = source
        self.target = target
    }

    /// Parses `src-tgt` as Apertium names its modes (`eng-spa`, `es-pt_BR`, `eng-cat_valencia`),
    /// or `src|tgt` as AJAX v1's `langpair` does.
    /// - Throws: ``TranslationError`` when it is not two valid codes.
    public init(parsing text: String) throws {
        let separator: Character = text.contains("|") ? "|" : "-"
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw TranslationError.invalidLanguage(text, reason: "a pair is two codes joined by '-' or '|' (eng-spa, en|es)")
        }
        self.init(source: try LanguageCode(parsing: String(parts[0])), target: try LanguageCode(parsing: String(parts[1])))
    }

    /// The same pair, the other way round.
    public var reversed: LanguagePair { LanguagePair(source: target, target: source) }

    /// Apertium's mode name for the pair (`eng-spa`, `spa-cat_valencia`).
    public var apertiumName: String { "\(source.apertiumCode)-\(target.apertiumCode)" }

    public var description: String { "\(source.bcp47)→\(target.bcp47)" }

    public static func < (lhs: LanguagePair, rhs: LanguagePair) -> Bool {
        (lhs.source, lhs.target) < (rhs.source, rhs.target)
    }
}
