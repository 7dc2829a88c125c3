import AccessControl
import GlossaWire
import HTTPServer
import TranslationCore

/// DeepL's v2 glossaries: one direction each. `POST /v2/glossaries` makes one, `GET` lists them
/// or reads one, `GET …/entries` gives its entries as TSV, `DELETE` removes it, and
/// `/v2/glossary-language-pairs` lists the directions a glossary may have. A glossary with
/// several dictionaries (made through v3) is read through v3 only, as DeepL does.
struct DeepLGlossariesV2: Sendable {
    let glossaries: DeepLGlossaryStore

    func create(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        guard let name = p.last("name"), !name.isEmpty else { throw APIError.missingParameter("name") }
        let source = try DeepLGlossaryStore.language(p.last("source_lang"), "source_lang")
        let target = try DeepLGlossaryStore.language(p.last("target_lang"), "target_lang")
        try glossaries.checkPair(source, target)
        let entries = try DeepLGlossaryStore.entries(p.last("entries"), format: p.last("entries_format"))
        let owner = glossaries.owner(request)
        let made = try await glossaries.run {
            try await $0.create(name: name, owner: owner, dictionaries: [GlossaryDictionaryEntries(source: source, target: target, entries: entries)])
        }
        return EndpointResult(response: jsonResponse(Self.json(made), status: 201, contentType: "application/json"))
    }

    func list(_ request: RoutedRequest) async throws -> EndpointResult {
        _ = try request.parameters()
        let owner = glossaries.owner(request)
        let all = try await glossaries.run { try await $0.list(owner: owner) }
        let listed = all.filter { $0.dictionaries.count == 1 }.map(Self.json)
        return EndpointResult(response: DeepLAPI.render(.object([("glossaries", .array(listed))])))
    }

    func get(_ request: RoutedRequest) async throws -> EndpointResult {
        let glossary = try await find(request)
        return EndpointResult(response: DeepLAPI.render(Self.json(glossary)))
    }

    /// The entries as TSV (the only format DeepL gives them in).
    func entries(_ request: RoutedRequest) async throws -> EndpointResult {
        let glossary = try await find(request)
        if let accept = request.http.headers["Accept"], !accept.isEmpty,
           !["text/tab-separated-values", "*/*", "text/*"].contains(where: { accept.contains($0) }) {
            throw APIError.translation(TranslationError(.invalidArgument, "The requested format is not supported: entries are given as text/tab-separated-values."))
        }
        let owner = glossaries.owner(request), d = glossary.dictionaries[0]
        let entries = try await glossaries.run { try await $0.entries(id: glossary.id, owner: owner, source: d.source, target: d.target) } ?? []
        return EndpointResult(response: HTTPResponse(status: 200, headers: ["Content-Type": "text/tab-separated-values; charset=UTF-8"],
                                                     body: Array(GlossaryEntries.tsv(entries).utf8)))
    }

    func delete(_ request: RoutedRequest) async throws -> EndpointResult {
        _ = try await find(request)
        let owner = glossaries.owner(request), id = request.pathParameters["glossary_id"] ?? ""
        guard try await glossaries.run({ try await $0.delete(id: id, owner: owner) }) else { throw DeepLGlossaryStore.notFound }
        return EndpointResult(response: HTTPResponse(status: 204))
    }

    func languagePairs(_ request: RoutedRequest) throws -> EndpointResult {
        _ = try request.parameters()
        let pairs: [JSON] = glossaries.pairs().map { .object([("source_lang", .string($0.0)), ("target_lang", .string($0.1))]) }
        return EndpointResult(response: DeepLAPI.render(.object([("supported_languages", .array(pairs))])))
    }

    /// The v2 glossary the path names; 404 when this key has none such, 400 for one with
    /// several dictionaries.
    private func find(_ request: RoutedRequest) async throws -> StoredGlossary {
        _ = try request.parameters()
        let owner = glossaries.owner(request), id = request.pathParameters["glossary_id"] ?? ""
        guard let glossary = try await glossaries.run({ try await $0.find(id: id, owner: owner) }) else { throw DeepLGlossaryStore.notFound }
        guard glossary.dictionaries.count == 1 else {
            throw APIError.translation(TranslationError(.invalidArgument, "This glossary has several dictionaries: read it through /v3/glossaries."))
        }
        return glossary
    }

    /// DeepL's v2 glossary object.
    static func json(_ g: StoredGlossary) -> JSON {
        let d = g.dictionaries.first
        return .object([("glossary_id", .string(g.id)), ("name", .string(g.name)), ("ready", .bool(true)),
                        ("source_lang", .string(d?.source ?? "")), ("target_lang", .string(d?.target ?? "")),
                        ("creation_time", .string(g.creationTime)), ("entry_count", .int(d?.entryCount ?? 0))])
    }
}
