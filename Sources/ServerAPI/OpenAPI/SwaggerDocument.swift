import GlossaWire

/// One dialect's endpoints as a Swagger 2.0 document, the format LibreTranslate serves at
/// `/spec` (from flask-swagger): POST parameters `in: formData`, GET parameters `in: query`.
/// Built from the same endpoint documentation as `/openapi.json`.
enum SwaggerDocument {
    static func make(dialect: Dialect) -> JSON {
        var paths: [(String, JSON)] = []
        for endpoint in dialect.endpoints where endpoint.docs.operation == nil {
            // Swagger writes path parameters as {name}, as PathPattern does.
            let operations: [(String, JSON)] = endpoint.methods.map { method in
                var operation: [(String, JSON)] = [
                    ("summary", .string(endpoint.docs.summary)),
                    ("tags", .array([.string(dialect.name)])),
                ]
                if let description = endpoint.docs.description { operation.append(("description", .string(description))) }
                operation.append(("parameters", .array(endpoint.docs.parameters.map { p in
                    var members: [(String, JSON)] = [
                        ("in", .string(p.inPath ? "path" : method == "POST" ? "formData" : "query")),
                        ("name", .string(p.name)),
                        ("required", .bool(p.required || p.inPath)),
                        ("description", .string(p.description)),
                    ]
                    switch p.kind {
                    case .string, .stringOrList: members.append(("type", .string("string")))
                    case .integer: members.append(("type", .string("integer")))
                    case .boolean: members.append(("type", .string("boolean")))
                    }
                    return .object(members)
                })))
                var responses: [(String, JSON)] = [("200", .object([("description", .string(endpoint.docs.success))]))]
                for (status, description) in dialect.errors.documentation {
                    responses.append((String(status), .object([("description", .string(description))])))
                }
                operation.append(("responses", .object(responses)))
                return (method.lowercased(), .object(operation))
            }
            paths.append((endpoint.path.description, .object(operations)))
        }
        return .object([
            ("swagger", .string("2.0")),
            ("basePath", .string("/")),
            ("info", .object([("title", .string(dialect.title)), ("version", .string(dialect.version)),
                              ("description", .string(dialect.summary)), ("license", .object([("name", .string("served by Glossa"))]))])),
            ("paths", .object(paths)),
            ("definitions", .object([])),
        ])
    }
}
