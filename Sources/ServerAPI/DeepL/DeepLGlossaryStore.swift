import AccessControl
import Foundation
import GlossaWire
import SQLDatabase
import TranslationCore

/// What DeepL's glossary endpoints share: the store, whose glossaries a request sees, DeepL's
/// JSON for a glossary, and the glossary a translation asks for.
struct DeepLGlossaryStore: Sendable {
    let glossaries: GlossaryAccess
    let languages: ServedLanguagesCache

    /// Whose glossaries `request` sees (``GlossaryAccess/owner(_:)``).
    func owner(_ request: RoutedRequest) -> String { glossaries.owner(request) }

    /// Runs `body` on the store (``GlossaryAccess/run(_:)``).
    func run<T>(_ body: (GlossaryStore) async throws -> T) async throws -> T { try await glossaries.run(body) }

    /// A base language code DeepL's glossaries take (`en`, `DE`; `EN-GB` is `en`).
    /// - Throws: a 400 naming the parameter.
    static func language(_ value: String?, _ name: String) throws -> LanguageCode {
        guard let value else { throw APIError.missingParameter(name) }
        guard let code = DeepLCodes.language(value) else {
            throw APIError.translation(TranslationError(.invalidArgument, "Value for '\(name)' not supported."))
        }
        return code.base
    }

    /// Checks that some route translates `source` into `target`, as DeepL checks a glossary's pair.
    func checkPair(_ source: LanguageCode, _ target: LanguageCode) throws {
        let served = languages.get()
        guard source != target, served.targets(from: source).contains(where: { $0.serves(target) || $0.base == target }) else {
            throw APIError.translation(TranslationError(.invalidArgument, "Unsupported glossary source and target language pair."))
        }
    }

    /// Every direction a glossary may have: each source with each target it reaches, base codes.
    func pairs() -> [(String, String)] {
        let served = languages.get()
        var seen = Set<String>(), out: [(String, String)] = []
        for source in served.listed where served.isSource(source) {
            for target in served.targets(from: source) where target.base != source.base {
                let pair = (source.language.lowercased(), target.language.lowercased())
                if seen.insert("\(pair.0)-\(pair.1)").inserted { out.append(pair) }
            }
        }
        return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// The glossary `glossary_id` (or the `glossary_ids`, merged, earlier ones first) names for
    /// `source` → `target`; nil when the request names none.
    /// - Throws: 400 when a source language is not given, an id is unknown to this key, or a
    ///   glossary has no dictionary for the pair.
    func glossary(for p: Parameters, request: RoutedRequest, source: LanguageCode?, target: LanguageCode) async throws -> Glossary? {
        var ids = p.all("glossary_id")
        for list in p.all("glossary_ids") { ids += list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        guard !ids.isEmpty else { return nil }
        guard let source else {
            throw APIError.translation(TranslationError(.invalidArgument, "Use of a glossary requires the source_lang parameter to be specified"))
        }
        guard ids.count <= 5 else { throw APIError.translation(TranslationError(.invalidArgument, "At most 5 glossaries may be used at once.")) }
        let owner = owner(request)
        let (s, t) = (source.language.lowercased(), target.language.lowercased())
        var entries: [GlossaryEntry] = [], seen = Set<String>()
        for id in ids {
            let found = try await run { try await $0.entries(id: id, owner: owner, source: s, target: t) }
            guard let found else {
                let exists = try await run { try await $0.find(id: id, owner: owner) } != nil
                throw APIError.translation(TranslationError(.invalidArgument, exists
                    ? "The glossary \(id) has no dictionary for \(s.uppercased()) to \(t.uppercased())."
                    : "Glossary not found: \(id)."))
            }
            for entry in found where seen.insert(entry.source).inserted { entries.append(entry) }
        }
        return Glossary(source: source.base, target: target.base, entries: entries)
    }

    /// A 404 in DeepL's envelope, which deepl-python turns into `GlossaryNotFoundException`.
    static let notFound = APIError(.notFound(path: "glossary"), "Glossary not found")

    /// The entries of a request: `entries` in `entries_format` (TSV when not given).
    static func entries(_ text: String?, format: String?) throws -> [GlossaryEntry] {
        guard let text else { throw APIError.missingParameter("entries") }
        return try GlossaryEntries.parse(text, format: GlossaryEntriesFormat(parsing: format ?? "tsv"))
    }
}
