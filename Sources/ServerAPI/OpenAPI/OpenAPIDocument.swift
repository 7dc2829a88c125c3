import GlossaWire

/// The OpenAPI 3 document served at `/openapi.json`, built from the mounted dialects: every
/// endpoint documents its own parameters and answers, every dialect its error envelope, so what
/// is served and what is documented are the same list. Every body's schema comes from the data
/// files in `Schemas/` (``OpenAPISchemas``), published under `components/schemas`.
enum OpenAPIDocument {
    /// The document of `dialects`, with `schemas` and `description` (one sentence naming the
    /// protocols, ``DialectRegistry/protocolsSentence``) from their registry.
    static func make(dialects: [Dialect], schemas: OpenAPISchemas, description: String) -> JSON {
        // Dialects may share a path (APy's and LibreTranslate's /translate); their operations on
        // one method are merged into one, whose description says how requests are told apart.
        var paths: [(path: String, operations: [(method: String, operation: [(String, JSON)])])] = []
        var seen = Set<String>(), sharedNames = Set<String>()
        for endpoint in dialects.flatMap(\.endpoints) where !seen.insert(endpoint.name).inserted { sharedNames.insert(endpoint.name) }
        for dialect in dialects {
            for endpoint in dialect.endpoints {
                let path = endpoint.path.description
                let index = paths.firstIndex { $0.path == path } ?? paths.count
                if index == paths.count { paths.append((path, [])) }
                if case .object(let item)? = endpoint.docs.operation {
                    for (method, operation) in item {
                        guard case .object(var members) = operation else { continue }
                        members.append(("tags", .array([.string(dialect.title)])))
                        // Its own answers, completed with the dialect's errors and their envelope.
                        if let index = members.firstIndex(where: { $0.0 == "responses" }), case .object(let responses) = members[index].1 {
                            members[index].1 = .object(schemas.completing(responses, dialect: dialect))
                        }
                        paths[index].operations.append((method, members))
                    }
                    continue
                }
                for method in endpoint.methods {
                    let key = method.lowercased()
                    let operation = self.operation(endpoint, method: method, dialect: dialect, sharedNames: sharedNames, schemas: schemas)
                    if let existing = paths[index].operations.firstIndex(where: { $0.method == key }) {
                        paths[index].operations[existing].operation = merge(paths[index].operations[existing].operation, operation)
                    } else {
                        paths[index].operations.append((key, operation))
                    }
                }
            }
        }
        let tags: [JSON] = dialects.filter { !$0.endpoints.isEmpty }.map {
            .object([("name", .string($0.title)), ("description", .string($0.summary))])
        }
        return .object([
            ("openapi", .string("3.0.3")),
            ("info", .object([("title", .string("Glossa")), ("version", .string("1.0")),
                              ("description", .string(
                                description + " A path with no endpoint answers 404 with a plain-text body (no protocol's envelope)."))])),
            ("tags", .array(tags)),
            ("paths", .object(paths.map { ($0.path, JSON.object($0.operations.map { ($0.method, JSON.object($0.operation)) })) })),
            ("components", .object([("schemas", .object(schemas.components))])),
        ])
    }

    /// What a POST's description adds when its parameters are documented as a body.
    private static let queryNote = "The body's parameters are also read from the query string."

    private static func operation(_ endpoint: Endpoint, method: String, dialect: Dialect, sharedNames: Set<String>,
                                  schemas: OpenAPISchemas) -> [(String, JSON)] {
        var operation: [(String, JSON)] = [
            ("operationId", .string(operationID(endpoint, method: method, sharedNames: sharedNames))),
            ("tags", .array([.string(dialect.title)])),
            ("summary", .string(endpoint.docs.summary)),
        ]
        // A POST takes its parameters in the body (and, as clients also send them, in the query:
        // said in the description, not listed twice); a GET in the query. Path and header
        // parameters stay where they are.
        let all = endpoint.docs.parameters
        let inBody = method == "POST" ? all.filter { !$0.inPath && !$0.inHeader } : []
        let listed = all.filter { p in !inBody.contains { $0.name == p.name } }
        var description = endpoint.docs.description
        if !inBody.isEmpty && endpoint.input != .none {
            description = [description, queryNote].compactMap { $0 }.joined(separator: " ")
        }
        if let description { operation.append(("description", .string(description))) }
        if !listed.isEmpty {
            operation.append(("parameters", .array(listed.map { p in
                .object([("name", .string(p.name)), ("in", .string(p.location)),
                         ("required", .bool(p.required || p.inPath)), ("description", .string(p.description)),
                         ("schema", schema(p.kind))])
            })))
        }
        if !inBody.isEmpty {
            operation.append(("requestBody", requestBody(inBody, input: endpoint.input)))
        }
        operation.append(("responses", .object(schemas.responses(endpoint.docs, dialect: dialect))))
        return operation
    }

    /// `name_method`, unique as OpenAPI requires: endpoints that share their metrics name with
    /// another (the web app's files) add their path (`web_app_app_css_get`).
    private static func operationID(_ endpoint: Endpoint, method: String, sharedNames: Set<String>) -> String {
        guard sharedNames.contains(endpoint.name) else { return "\(endpoint.name)_\(method.lowercased())" }
        let slug = endpoint.path.description.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "_")
        return [endpoint.name, slug.isEmpty ? "index" : slug, method.lowercased()].joined(separator: "_")
    }

    /// A POST body holding `parameters`: a form (or JSON, where the endpoint reads it), or, for
    /// an endpoint that reads its own body (a file upload), a multipart form.
    private static func requestBody(_ parameters: [ParameterDoc], input: ParameterInput) -> JSON {
        let required = parameters.filter(\.required).map { JSON.string($0.name) }
        var object: [(String, JSON)] = [
            ("type", .string("object")),
            ("properties", .object(parameters.map { p in
                guard case .object(var members) = schema(p.kind) else { return (p.name, schema(p.kind)) }
                members.append(("description", .string(p.description)))
                return (p.name, .object(members))
            })),
        ]
        if !required.isEmpty { object.append(("required", .array(required))) }
        let types: [String]
        switch input {
        case .none: types = ["multipart/form-data"]
        case .queryAndForm: types = ["application/x-www-form-urlencoded"]
        case .queryFormOrJSON: types = ["application/x-www-form-urlencoded", "application/json"]
        case .upload: types = ["multipart/form-data", "application/x-www-form-urlencoded"]
        case .uploadOrJSON: types = ["multipart/form-data", "application/x-www-form-urlencoded", "application/json"]
        case .queryAndOwnJSON: types = ["application/json"]
        }
        return .object([
            ("required", .bool(!required.isEmpty)),
            ("content", .object(types.map { ($0, .object([("schema", .object(object))])) })),
        ])
    }

    static func schema(_ kind: ParameterDoc.Kind) -> JSON {
        switch kind {
        case .string: return .object([("type", .string("string"))])
        case .integer: return .object([("type", .string("integer"))])
        case .boolean: return .object([("type", .string("boolean"))])
        case .stringOrList:
            return .object([("oneOf", .array([.object([("type", .string("string"))]),
                                              .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])]))])
        }
    }

    /// Two dialects' operations on one path and method as one: joined summaries, descriptions,
    /// tags, parameters (each name once) and answers.
    private static func merge(_ a: [(String, JSON)], _ b: [(String, JSON)]) -> [(String, JSON)] {
        func value(_ members: [(String, JSON)], _ key: String) -> JSON? { members.first { $0.0 == key }?.1 }
        func text(_ members: [(String, JSON)], _ key: String) -> String? {
            if case .string(let s)? = value(members, key) { return s } else { return nil }
        }
        func list(_ members: [(String, JSON)], _ key: String) -> [JSON] {
            if case .array(let items)? = value(members, key) { return items } else { return [] }
        }
        var merged: [(String, JSON)] = [
            ("operationId", .string([text(a, "operationId"), text(b, "operationId")].compactMap { $0 }.joined(separator: "_or_"))),
            ("tags", .array(list(a, "tags") + list(b, "tags"))),
            ("summary", .string([text(a, "summary"), text(b, "summary")].compactMap { $0 }.joined(separator: " | "))),
        ]
        // Each says where its parameters are read from; said once.
        let parts = [text(a, "description"), text(b, "description")].compactMap { $0 }
        let noted = parts.contains { $0.hasSuffix(queryNote) }
        let description = (parts.map { $0.hasSuffix(queryNote) ? String($0.dropLast(queryNote.count)).trimmingSuffixSpaces : $0 }
                           + (noted ? [queryNote] : [])).filter { !$0.isEmpty }.joined(separator: " ")
        if !description.isEmpty { merged.append(("description", .string(description))) }
        var names = Set<String>()
        let parameters = (list(a, "parameters") + list(b, "parameters")).compactMap { p -> JSON? in
            guard case .object(var members) = p, case .string(let name)? = p["name"], names.insert(name).inserted else { return nil }
            // Required by one protocol only: not required of the merged operation.
            if let i = members.firstIndex(where: { $0.0 == "required" }) { members[i].1 = .bool(false) }
            return .object(members)
        }
        merged.append(("parameters", .array(parameters)))
        if let body = mergedBody(value(a, "requestBody"), value(b, "requestBody")) { merged.append(("requestBody", body)) }
        var responses: [(String, JSON)] = []
        for case .object(let items)? in [value(a, "responses"), value(b, "responses")] {
            for (status, response) in items {
                guard let index = responses.firstIndex(where: { $0.0 == status }) else { responses.append((status, response)); continue }
                responses[index].1 = mergedResponse(responses[index].1, response)
            }
        }
        merged.append(("responses", .object(responses)))
        return merged
    }

    /// Two protocols' answers with one status: both descriptions, and every media type of both,
    /// a body of either protocol's schema where both have one (`anyOf`).
    private static func mergedResponse(_ a: JSON, _ b: JSON) -> JSON {
        func text(_ response: JSON) -> String? { if case .string(let s)? = response["description"] { return s } else { return nil } }
        func contents(_ response: JSON) -> [(String, JSON)] { if case .object(let items)? = response["content"] { return items } else { return [] } }
        let descriptions = [text(a), text(b)].compactMap { $0 }
        var types = contents(a)
        for (type, media) in contents(b) {
            guard let index = types.firstIndex(where: { $0.0 == type }) else { types.append((type, media)); continue }
            guard let first = types[index].1["schema"], let second = media["schema"], first != second else { continue }
            types[index].1 = .object([("schema", .object([("anyOf", .array([first, second]))]))])
        }
        var members: [(String, JSON)] = [("description", .string(descriptions.count == 2 && descriptions[0] != descriptions[1]
                                                                    ? descriptions.joined(separator: " | ") : descriptions.first ?? ""))]
        if !types.isEmpty { members.append(("content", .object(types))) }
        return .object(members)
    }

    /// Two protocols' bodies on one operation: every media type and property of both; a property
    /// is required of the merged body only where both require it, since a request may be either
    /// protocol's.
    private static func mergedBody(_ a: JSON?, _ b: JSON?) -> JSON? {
        guard let a, let b else { return a ?? b }
        func contents(_ body: JSON) -> [(String, JSON)] {
            if case .object(let items)? = body["content"] { return items } else { return [] }
        }
        func members(_ schema: JSON?, _ key: String) -> [(String, JSON)] {
            if case .object(let items)? = schema?[key] { return items } else { return [] }
        }
        func names(_ schema: JSON?) -> Set<String> {
            guard case .array(let items)? = schema?["required"] else { return [] }
            return Set(items.compactMap { if case .string(let s) = $0 { return s } else { return nil } })
        }
        var types: [(String, JSON)] = []
        for (type, media) in contents(a) + contents(b) {
            guard let index = types.firstIndex(where: { $0.0 == type }) else { types.append((type, media)); continue }
            let first = types[index].1["schema"], second = media["schema"]
            var properties = members(first, "properties")
            for (name, property) in members(second, "properties") where !properties.contains(where: { $0.0 == name }) {
                properties.append((name, property))
            }
            var schema: [(String, JSON)] = [("type", .string("object")), ("properties", .object(properties))]
            let required = names(first).intersection(names(second)).sorted().map(JSON.string)
            if !required.isEmpty { schema.append(("required", .array(required))) }
            types[index].1 = .object([("schema", .object(schema))])
        }
        return .object([("required", .bool(false)), ("content", .object(types))])
    }
}

private extension String {
    var trimmingSuffixSpaces: String { String(self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)]) }
}
