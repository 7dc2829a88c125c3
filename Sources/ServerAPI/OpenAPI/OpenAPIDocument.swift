import GlossaWire

/// The OpenAPI 3 document served at `/openapi.json`, built from the mounted dialects: every
/// endpoint documents its own parameters and answers, every dialect its error envelope, so what
/// is served and what is documented are the same list.
enum OpenAPIDocument {
    static func make(dialects: [Dialect]) -> JSON {
        // Dialects may share a path (APy's and LibreTranslate's /translate); their operations on
        // one method are merged into one, whose description says how requests are told apart.
        var paths: [(path: String, operations: [(method: String, operation: [(String, JSON)])])] = []
        for dialect in dialects {
            for endpoint in dialect.endpoints where endpoint.docs.listed {
                let path = endpoint.path.description
                let index = paths.firstIndex { $0.path == path } ?? paths.count
                if index == paths.count { paths.append((path, [])) }
                if case .object(let item)? = endpoint.docs.operation {
                    for (method, operation) in item {
                        guard case .object(var members) = operation else { continue }
                        members.append(("tags", .array([.string(dialect.title)])))
                        paths[index].operations.append((method, members))
                    }
                    continue
                }
                for method in endpoint.methods {
                    let key = method.lowercased()
                    let operation = self.operation(endpoint, method: method, dialect: dialect)
                    if let existing = paths[index].operations.firstIndex(where: { $0.method == key }) {
                        paths[index].operations[existing].operation = merge(paths[index].operations[existing].operation, operation)
                    } else {
                        paths[index].operations.append((key, operation))
                    }
                }
            }
        }
        let tags: [JSON] = dialects.filter { $0.endpoints.contains { $0.docs.listed } }.map {
            .object([("name", .string($0.title)), ("description", .string($0.summary))])
        }
        return .object([
            ("openapi", .string("3.0.3")),
            ("info", .object([("title", .string("Glossa")), ("version", .string("1.0")),
                              ("description", .string(
                                "Offline translation speaking Google Cloud Translation v2, the AJAX Language API v1, Apertium APy, LibreTranslate 1.9 and DeepL API v2, plus Glossa's own streaming endpoints. "
                                + "A path with no endpoint answers 404 with a plain-text body (no protocol's envelope)."))])),
            ("tags", .array(tags)),
            ("paths", .object(paths.map { ($0.path, JSON.object($0.operations.map { ($0.method, JSON.object($0.operation)) })) })),
        ])
    }

    private static func operation(_ endpoint: Endpoint, method: String, dialect: Dialect) -> [(String, JSON)] {
        var operation: [(String, JSON)] = [
            ("operationId", .string("\(endpoint.name)_\(method.lowercased())")),
            ("tags", .array([.string(dialect.title)])),
            ("summary", .string(endpoint.docs.summary)),
        ]
        if let description = endpoint.docs.description { operation.append(("description", .string(description))) }
        let parameters = endpoint.docs.parameters
        if !parameters.isEmpty {
            operation.append(("parameters", .array(parameters.map { p in
                .object([("name", .string(p.name)), ("in", .string(p.inPath ? "path" : "query")),
                         ("required", .bool(p.required || p.inPath)), ("description", .string(p.description)),
                         ("schema", schema(p.kind))])
            })))
            if method == "POST", endpoint.input != .none {
                var types: [(String, JSON)] = [("application/x-www-form-urlencoded", .object([("schema", .object([
                    ("type", .string("object")), ("description", .string("The same parameters as a form.")),
                ]))]))]
                if endpoint.input == .queryFormOrJSON {
                    types.append(("application/json", .object([("schema", .object([("type", .string("object")),
                        ("description", .string("The same parameters as JSON; a list where repeatable; null means absent."))]))])))
                }
                operation.append(("requestBody", .object([("required", .bool(false)), ("content", .object(types))])))
            }
        }
        var responses: [(String, JSON)] = [("200", .object([
            ("description", .string(endpoint.docs.success)),
            ("content", .object([(endpoint.docs.successType, .object([("schema", .object([]))]))])),
        ]))]
        for (status, description) in dialect.errors.documentation {
            responses.append((String(status), .object([("description", .string(description))])))
        }
        operation.append(("responses", .object(responses)))
        return operation
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
        let description = [text(a, "description"), text(b, "description")].compactMap { $0 }.joined(separator: " ")
        if !description.isEmpty { merged.append(("description", .string(description))) }
        var names = Set<String>()
        let parameters = (list(a, "parameters") + list(b, "parameters")).compactMap { p -> JSON? in
            guard case .object(var members) = p, case .string(let name)? = p["name"], names.insert(name).inserted else { return nil }
            // Required by one protocol only: not required of the merged operation.
            if let i = members.firstIndex(where: { $0.0 == "required" }) { members[i].1 = .bool(false) }
            return .object(members)
        }
        merged.append(("parameters", .array(parameters)))
        if let body = value(b, "requestBody") ?? value(a, "requestBody") { merged.append(("requestBody", body)) }
        var responses: [(String, JSON)] = []
        for case .object(let items)? in [value(a, "responses"), value(b, "responses")] {
            for (status, response) in items where !responses.contains(where: { $0.0 == status }) { responses.append((status, response)) }
        }
        merged.append(("responses", .object(responses)))
        return merged
    }
}
