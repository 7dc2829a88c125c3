import AccessControl
import Foundation
import GlossaWire
import TranslationCore

/// v3's glossaries over the server's glossary store: listed, read and deleted here, and used by
/// `:translateText` through `glossaryConfig`. A glossary is a one-direction glossary of the store
/// (made through DeepL's `/v2/glossaries` or `glossa glossary create`), named
/// `projects/{project}/locations/{location}/glossaries/{id}`; the store's glossaries with several
/// dictionaries are DeepL's and are not listed here. Creating one is refused: v3 reads a new
/// glossary's entries from Cloud Storage (`inputConfig.gcsSource`), which an offline server
/// cannot reach.
struct GoogleV3Glossaries: Sendable {
    let glossaries: GlossaryAccess

    func list(_ request: RoutedRequest) async throws -> EndpointResult {
        _ = try request.parameters()
        let owner = glossaries.owner(request)
        let all = try await glossaries.run { try await $0.list(owner: owner) }.filter { $0.dictionaries.count == 1 }
        // proto3 JSON leaves an empty list out: ListGlossariesResponse with no glossaries is {}.
        let body: JSON = all.isEmpty ? .object([]) : .object([("glossaries", .array(all.map { Self.json($0, request) }))])
        return EndpointResult(response: GoogleV3API.render(body))
    }

    func create(_ request: RoutedRequest) throws -> EndpointResult {
        throw APIError.translation(TranslationError(.invalidArgument,
            "Glossaries cannot be created through v3 here: v3 reads their entries from Cloud Storage, which this offline server cannot reach. Make one with DeepL's POST /v2/glossaries or `glossa glossary create`, then name it here."))
    }

    /// GET reads the glossary; DELETE removes it and answers a finished operation.
    func glossary(_ request: RoutedRequest) async throws -> EndpointResult {
        _ = try request.parameters()
        let owner = glossaries.owner(request), id = request.pathParameters["glossary"] ?? ""
        guard let found = try await glossaries.run({ try await $0.find(id: id, owner: owner) }), found.dictionaries.count == 1 else {
            throw Self.notFound(Self.name(id, request))
        }
        guard request.http.method == "DELETE" else { return EndpointResult(response: GoogleV3API.render(Self.json(found, request))) }
        _ = try await glossaries.run { try await $0.delete(id: id, owner: owner) }
        let now = StoredGlossary.timestamp(Date())
        let (project, location) = GoogleV3API.place(request)
        let operation: JSON = .object([
            ("name", .string("projects/\(project)/locations/\(location)/operations/delete-\(id)")),
            ("done", .bool(true)),
            ("response", .object([("@type", .string("type.googleapis.com/google.cloud.translation.v3.DeleteGlossaryResponse")),
                                  ("name", .string(Self.name(id, request))), ("submitTime", .string(now)), ("endTime", .string(now))])),
        ])
        return EndpointResult(response: GoogleV3API.render(operation))
    }

    /// The glossary a `glossaryConfig` names for `source` → `target`, with its case rule.
    /// - Throws: 400 without a source language or for a glossary of another pair; 404 for one
    ///   this caller has not got.
    func glossary(for config: GoogleV3Body, request: RoutedRequest, source: LanguageCode?, target: LanguageCode) async throws -> (Glossary, String) {
        guard let name = try config.string("glossary") else { throw APIError.missingParameter("glossaryConfig.glossary") }
        guard let source else {
            throw APIError.translation(TranslationError(.invalidArgument, "sourceLanguageCode is required when a glossary is used."))
        }
        let ignoresCase: Bool
        switch config["ignoreCase"] {
        case nil: ignoresCase = false
        case .bool(let value)?: ignoresCase = value
        default: throw GoogleV3Body.wrongType("glossaryConfig.ignoreCase", "a boolean")
        }
        let id = String(name.split(separator: "/").last ?? "")
        let owner = glossaries.owner(request)
        guard let found = try await glossaries.run({ try await $0.find(id: id, owner: owner) }), found.dictionaries.count == 1 else {
            throw Self.notFound(name)
        }
        let (s, t) = (source.language.lowercased(), target.language.lowercased())
        guard let entries = try await glossaries.run({ try await $0.entries(id: id, owner: owner, source: s, target: t) }) else {
            let d = found.dictionaries[0]
            throw APIError.translation(TranslationError(.invalidArgument,
                "The glossary \(name) is for \(d.source) to \(d.target), not \(s) to \(t)."))
        }
        return (Glossary(source: source.base, target: target.base, entries: entries, ignoresCase: ignoresCase), name)
    }

    static func notFound(_ name: String) -> APIError { APIError(.notFound(path: name), "Glossary not found: \(name).") }

    static func name(_ id: String, _ request: RoutedRequest) -> String {
        let (project, location) = GoogleV3API.place(request)
        return "projects/\(project)/locations/\(location)/glossaries/\(id)"
    }

    static func json(_ g: StoredGlossary, _ request: RoutedRequest) -> JSON {
        let d = g.dictionaries[0]
        let time = g.creationTime
        return .object([("name", .string(name(g.id, request))),
                        ("languagePair", .object([("sourceLanguageCode", .string(d.source)), ("targetLanguageCode", .string(d.target))])),
                        ("entryCount", .int(d.entryCount)), ("submitTime", .string(time)), ("endTime", .string(time)),
                        ("displayName", .string(g.name))])
    }
}
