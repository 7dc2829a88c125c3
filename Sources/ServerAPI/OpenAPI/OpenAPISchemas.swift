import GlossaWire

/// The body schemas of `/openapi.json`, kept as data: one JSON file per dialect in `Schemas/`
/// (named by the dialect, `google_v2.json`), embedded in the binary at build time. A file holds
/// `schemas`, each published in `components/schemas` as `<file>.<key>` (`google_v2.Error`) and
/// named so by ``EndpointDocs/schema``; `error`, the key of the dialect's error envelope (every
/// error status of the dialect holds it); and `jsonp`, the media type of a 200 answered with
/// `callback=` (JSONP), where the dialect has it.
struct OpenAPISchemas: Sendable {
    /// What a dialect's file says of the dialect as a whole.
    struct DialectFacts: Sendable {
        /// The component name of its error envelope; nil: it has none (AJAX v1 answers 200).
        var error: String?
        /// The media type of its JSONP answers; nil: it has none.
        var jsonp: String?
    }

    /// Every schema, by component name, in file order and then key order.
    let components: [(String, JSON)]
    /// The facts of each dialect that has a file, by dialect name.
    let dialects: [String: DialectFacts]

    /// Reads `files`, by dialect name (each registration's own, ``DialectRegistry/schemas``; a
    /// dialect without a file documents no JSON bodies: the web app's files are text). A file that is not JSON of the documented shape is a build mistake, caught
    /// by ServerAPITests (every file read, every name an endpoint gives defined), so it stops here.
    init(files: [(name: String, bytes: [UInt8])]) {
        var components: [(String, JSON)] = []
        var dialects: [String: DialectFacts] = [:]
        for (name, bytes) in files {
            guard let file = try? JSON.parse(bytes), case .object(let schemas)? = file["schemas"] else {
                preconditionFailure("OpenAPI/Schemas/\(name).json is not a JSON object with \"schemas\"")
            }
            components += schemas.map { ("\(name).\($0.0)", $0.1) }
            func text(_ key: String) -> String? { if case .string(let s)? = file[key] { return s } else { return nil } }
            dialects[name] = DialectFacts(error: text("error").map { "\(name).\($0)" }, jsonp: text("jsonp"))
        }
        self.components = components
        self.dialects = dialects
    }

    /// Whether `name` is a component.
    func defines(_ name: String) -> Bool { components.contains { $0.0 == name } }

    /// `{"$ref": "#/components/schemas/NAME"}`.
    static func reference(_ name: String) -> JSON { .object([("$ref", .string("#/components/schemas/\(name)"))]) }

    /// The schema of a body that is not JSON: a string, binary unless it is text.
    static func unstructured(_ mediaType: String) -> JSON {
        mediaType.hasPrefix("text/") || mediaType.contains("javascript")
            ? .object([("type", .string("string"))])
            : .object([("type", .string("string")), ("format", .string("binary"))])
    }

    /// Whether `mediaType` is JSON (`application/json`, `…+json`).
    static func isJSON(_ mediaType: String) -> Bool {
        let type = mediaType.split(separator: ";")[0]
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// The answers of one endpoint of `dialect`: 200 (with its JSONP variant), the endpoint's own
    /// statuses and the dialect's errors, each with its body's schema.
    func responses(_ docs: EndpointDocs, dialect: Dialect) -> [(String, JSON)] {
        let facts = dialects[dialect.name] ?? DialectFacts()
        var success: [(String, JSON)] = [(docs.successType, .object([("schema", body(docs.schema, docs.successType))]))]
        if let jsonp = facts.jsonp, docs.parameters.contains(where: { $0.name == "callback" }) {
            success.append((jsonp, .object([("schema", Self.unstructured(jsonp))])))
        }
        var responses: [(String, JSON)] = [("200", .object([("description", .string(docs.success)), ("content", .object(success))]))]
        for (status, description) in docs.responses + dialect.errors.documentation where !responses.contains(where: { $0.0 == String(status) }) {
            responses.append((String(status), response(status: status, description: description, schema: docs.responseSchemas[status], facts: facts)))
        }
        return responses
    }

    /// A complete operation's answers (the stream's) with the dialect's error statuses it does
    /// not list added, and the error envelope's schema on every error answer without a body.
    func completing(_ responses: [(String, JSON)], dialect: Dialect) -> [(String, JSON)] {
        let facts = dialects[dialect.name] ?? DialectFacts()
        var result: [(String, JSON)] = responses.map { status, response in
            guard let code = Int(status), code >= 400, response["content"] == nil, case .string(let text)? = response["description"] else {
                return (status, response)
            }
            return (status, self.response(status: code, description: text, schema: nil, facts: facts))
        }
        for (status, description) in dialect.errors.documentation where !result.contains(where: { $0.0 == String(status) }) {
            result.append((String(status), response(status: status, description: description, schema: nil, facts: facts)))
        }
        return result
    }

    private func response(status: Int, description: String, schema: String?, facts: DialectFacts) -> JSON {
        guard let name = schema ?? (status >= 400 ? facts.error : nil) else { return .object([("description", .string(description))]) }
        return .object([("description", .string(description)),
                        ("content", .object([("application/json", .object([("schema", Self.reference(name))]))]))])
    }

    /// A named schema's reference; for a body that is not JSON, a string.
    private func body(_ name: String?, _ mediaType: String) -> JSON {
        if let name { return Self.reference(name) }
        return Self.isJSON(mediaType) ? .object([]) : Self.unstructured(mediaType)
    }
}
