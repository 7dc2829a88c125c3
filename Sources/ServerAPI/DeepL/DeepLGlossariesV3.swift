import AccessControl
import GlossaWire
import HTTPServer
import TranslationCore

/// DeepL's v3 (multilingual) glossaries: a name and one dictionary per direction. JSON bodies:
/// `POST /v3/glossaries` `{name, dictionaries: [{source_lang, target_lang, entries, entries_format}]}`;
/// `PATCH /v3/glossaries/{id}` renames and merges entries into dictionaries; `PUT
/// …/dictionaries` replaces one dictionary; `DELETE …/dictionaries?source_lang&target_lang`
/// removes one; `GET …/entries?source_lang&target_lang` gives one's entries.
struct DeepLGlossariesV3: Sendable {
    let glossaries: DeepLGlossaryStore

    func create(_ request: RoutedRequest) async throws -> EndpointResult {
        let body = try Self.body(request)
        guard case .string(let name)? = body["name"], !name.isEmpty else { throw APIError.missingParameter("name") }
        guard case .array(let items)? = body["dictionaries"], !items.isEmpty else { throw APIError.missingParameter("dictionaries") }
        let dictionaries = try items.map(dictionary)
        let owner = glossaries.owner(request)
        let made = try await glossaries.run { try await $0.create(name: name, owner: owner, dictionaries: dictionaries) }
        return EndpointResult(response: jsonResponse(Self.json(made), status: 201, contentType: "application/json"))
    }

    func list(_ request: RoutedRequest) async throws -> EndpointResult {
        let owner = glossaries.owner(request)
        let all = try await glossaries.run { try await $0.list(owner: owner) }
        return EndpointResult(response: DeepLAPI.render(.object([("glossaries", .array(all.map(Self.json)))])))
    }

    /// GET reads, PATCH changes, DELETE removes the glossary the path names.
    func glossary(_ request: RoutedRequest) async throws -> EndpointResult {
        let owner = glossaries.owner(request), id = request.pathParameters["glossary_id"] ?? ""
        switch request.http.method {
        case "PATCH":
            let body = try Self.body(request)
            var name: String?
            if let value = body["name"] {
                guard case .string(let given) = value else { throw Self.bad("'name' must be a string.") }
                name = given
            }
            var merging: [GlossaryDictionaryEntries] = []
            if let value = body["dictionaries"] {
                guard case .array(let items) = value else { throw Self.bad("'dictionaries' must be a list.") }
                merging = try items.map(dictionary)
            }
            guard name != nil || !merging.isEmpty else { throw Self.bad("Give a name or dictionaries to change.") }
            guard let changed = try await glossaries.run({ try await $0.update(id: id, owner: owner, name: name, merging: merging) }) else {
                throw DeepLGlossaryStore.notFound
            }
            return EndpointResult(response: DeepLAPI.render(Self.json(changed)))
        case "DELETE":
            guard try await glossaries.run({ try await $0.delete(id: id, owner: owner) }) else { throw DeepLGlossaryStore.notFound }
            return EndpointResult(response: HTTPResponse(status: 204))
        default:
            guard let found = try await glossaries.run({ try await $0.find(id: id, owner: owner) }) else { throw DeepLGlossaryStore.notFound }
            return EndpointResult(response: DeepLAPI.render(Self.json(found)))
        }
    }

    /// PUT replaces (or adds) one dictionary; DELETE removes the one the query names.
    func dictionaries(_ request: RoutedRequest) async throws -> EndpointResult {
        let owner = glossaries.owner(request), id = request.pathParameters["glossary_id"] ?? ""
        if request.http.method == "DELETE" {
            let (source, target) = try pair(try request.parameters())
            guard try await glossaries.run({ try await $0.deleteDictionary(id: id, owner: owner, source: source, target: target) }) else {
                throw DeepLGlossaryStore.notFound
            }
            return EndpointResult(response: HTTPResponse(status: 204))
        }
        let replacement = try dictionary(try Self.body(request))
        guard let made = try await glossaries.run({ try await $0.replace(id: id, owner: owner, dictionary: replacement) }) else {
            throw DeepLGlossaryStore.notFound
        }
        return EndpointResult(response: DeepLAPI.render(Self.json(made)))
    }

    func entries(_ request: RoutedRequest) async throws -> EndpointResult {
        let owner = glossaries.owner(request), id = request.pathParameters["glossary_id"] ?? ""
        let (source, target) = try pair(try request.parameters())
        guard let entries = try await glossaries.run({ try await $0.entries(id: id, owner: owner, source: source, target: target) }) else {
            throw DeepLGlossaryStore.notFound
        }
        let dictionary: JSON = .object([("source_lang", .string(source)), ("target_lang", .string(target)),
                                        ("entries", .string(GlossaryEntries.tsv(entries))), ("entries_format", .string("tsv"))])
        return EndpointResult(response: DeepLAPI.render(.object([("dictionaries", .array([dictionary]))])))
    }

    /// `source_lang` and `target_lang` of a query, as base codes.
    private func pair(_ p: Parameters) throws -> (String, String) {
        let source = try DeepLGlossaryStore.language(p.last("source_lang"), "source_lang")
        let target = try DeepLGlossaryStore.language(p.last("target_lang"), "target_lang")
        return (source.language.lowercased(), target.language.lowercased())
    }

    /// One dictionary of a request body, checked: its pair served, its entries well formed.
    private func dictionary(_ item: JSON) throws -> GlossaryDictionaryEntries {
        guard case .object = item else { throw Self.bad("Each dictionary must be an object.") }
        func string(_ name: String) throws -> String? {
            guard let value = item[name] else { return nil }
            guard case .string(let text) = value else { throw Self.bad("'\(name)' must be a string.") }
            return text
        }
        let source = try DeepLGlossaryStore.language(try string("source_lang"), "source_lang")
        let target = try DeepLGlossaryStore.language(try string("target_lang"), "target_lang")
        try glossaries.checkPair(source, target)
        let entries = try DeepLGlossaryStore.entries(try string("entries"), format: try string("entries_format"))
        return GlossaryDictionaryEntries(source: source, target: target, entries: entries)
    }

    /// The request's JSON object.
    static func body(_ request: RoutedRequest) throws -> JSON {
        guard let json = try? JSON.parse(request.http.body), case .object = json else {
            throw APIError.malformedBody(.notAnObject, "The request body must be a JSON object.")
        }
        return json
    }

    static func bad(_ message: String) -> APIError { .translation(TranslationError(.invalidArgument, message)) }

    /// DeepL's v3 glossary object.
    static func json(_ g: StoredGlossary) -> JSON {
        .object([("glossary_id", .string(g.id)), ("name", .string(g.name)),
                 ("dictionaries", .array(g.dictionaries.map(json))),
                 ("creation_time", .string(g.creationTime))])
    }

    static func json(_ d: StoredGlossary.Dictionary) -> JSON {
        .object([("source_lang", .string(d.source)), ("target_lang", .string(d.target)), ("entry_count", .int(d.entryCount))])
    }
}

extension JSON {
    /// An object's members; none for anything else.
    var members: [(String, JSON)] {
        if case .object(let members) = self { return members }
        return []
    }
}
