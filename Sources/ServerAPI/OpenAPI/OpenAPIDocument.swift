/// The OpenAPI 3 document served at `/openapi.json`, built from the route table itself so that
/// every served endpoint and method is documented and nothing else is.
enum OpenAPIDocument {
    /// A documented parameter.
    struct Parameter {
        let name: String
        let required: Bool
        let description: String
        var repeated = false
    }

    /// Parameters per endpoint name (query for GET; the same names in a form or JSON body for POST).
    static let parameters: [String: [Parameter]] = [
        "google_v2_translate": [
            Parameter(name: "q", required: true, description: "Text to translate; repeat (or send a JSON array) for several, at most 128.", repeated: true),
            Parameter(name: "target", required: true, description: "Language to translate into (en, es, pt-BR, zh-TW)."),
            Parameter(name: "source", required: false, description: "Language of q; detected when omitted (then detectedSourceLanguage is returned)."),
            Parameter(name: "format", required: false, description: "html (default: tags kept, text HTML-escaped on output) or text."),
            Parameter(name: "model", required: false, description: "nmt or base; echoed as model when given."),
            Parameter(name: "key", required: false, description: "API key (also X-Goog-Api-Key); accepted, not checked."),
            Parameter(name: "prettyPrint", required: false, description: "false for compact JSON (default true)."),
        ],
        "google_v2_detect": [
            Parameter(name: "q", required: true, description: "Text to detect; repeat for several, at most 128.", repeated: true),
            Parameter(name: "key", required: false, description: "API key; accepted, not checked."),
        ],
        "google_v2_languages": [
            Parameter(name: "target", required: false, description: "Language to name the languages in; names are omitted without it."),
            Parameter(name: "model", required: false, description: "nmt or base."),
            Parameter(name: "key", required: false, description: "API key; accepted, not checked."),
        ],
        "ajax_v1_translate": [
            Parameter(name: "v", required: false, description: "Protocol version, 1.0."),
            Parameter(name: "q", required: true, description: "Text to translate; repeat for several (then responseData is a list of envelopes).", repeated: true),
            Parameter(name: "langpair", required: true, description: "source|target (en|ja); an empty source (|ja) detects.", repeated: true),
            Parameter(name: "format", required: false, description: "html (default) or text."),
            Parameter(name: "callback", required: false, description: "JSONP function name."),
        ],
        "ajax_v1_detect": [
            Parameter(name: "v", required: false, description: "Protocol version, 1.0."),
            Parameter(name: "q", required: true, description: "Text to detect."),
            Parameter(name: "callback", required: false, description: "JSONP function name."),
        ],
        "apy_translate": [
            Parameter(name: "langpair", required: true, description: "eng|spa (ISO 639-3 or 639-1); an empty source detects."),
            Parameter(name: "q", required: true, description: "Text to translate (once)."),
            Parameter(name: "format", required: false, description: "html (default), html-noent or txt."),
            Parameter(name: "markUnknown", required: false, description: "yes (default): mark unknown words with *, words that could not be generated with # and words missing from the bilingual dictionary with @, as APy does; no: no marks."),
            Parameter(name: "callback", required: false, description: "JSONP function name."),
        ],
        "apy_list_pairs": [
            Parameter(name: "src", required: false, description: "Only pairs from this language."),
            Parameter(name: "include_deprecated_codes", required: false, description: "1 to list 2-letter spellings too."),
            Parameter(name: "callback", required: false, description: "JSONP function name."),
        ],
        "apy_identify_lang": [
            Parameter(name: "q", required: true, description: "Text to identify."),
            Parameter(name: "callback", required: false, description: "JSONP function name."),
        ],
    ]

    static func make(endpoints: [Endpoint]) -> JSON {
        var paths: [(String, JSON)] = []
        for endpoint in endpoints {
            if let documentation = endpoint.documentation {
                paths.append((endpoint.path, documentation))
                continue
            }
            var operations: [(String, JSON)] = []
            for method in endpoint.methods {
                var operation: [(String, JSON)] = [
                    ("operationId", .string("\(endpoint.name)_\(method.lowercased())")),
                    ("summary", .string(endpoint.summary)),
                ]
                let documented = parameters[endpoint.name] ?? []
                if !documented.isEmpty {
                    operation.append(("parameters", .array(documented.map { p in
                        let schema: JSON = p.repeated
                            ? .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])
                            : .object([("type", .string("string"))])
                        return .object([("name", .string(p.name)), ("in", .string("query")), ("required", .bool(p.required)),
                                        ("description", .string(p.description)), ("schema", schema)])
                    })))
                    if method == "POST" {
                        var types: [(String, JSON)] = [("application/x-www-form-urlencoded", .object([("schema", .object([("type", .string("object"))]))]))]
                        if endpoint.wire == .googleV2 {
                            types.append(("application/json", .object([("schema", .object([("type", .string("object")),
                                ("description", .string("The same parameters as JSON; q may be a string or a list; null means absent; {\"data\": {...}} is unwrapped."))]))])))
                        }
                        operation.append(("requestBody", .object([("required", .bool(false)), ("content", .object(types))])))
                    }
                }
                operation.append(("responses", responses(for: endpoint)))
                operations.append((method.lowercased(), .object(operation)))
            }
            paths.append((endpoint.path, .object(operations)))
        }
        return .object([
            ("openapi", .string("3.0.3")),
            ("info", .object([("title", .string("Glossa")), ("version", .string("1.0")),
                              ("description", .string("Offline translation speaking Google Cloud Translation v2, the AJAX Language API v1 and Apertium APy."))])),
            ("paths", .object(paths)),
        ])
    }

    private static func responses(for endpoint: Endpoint) -> JSON {
        let ok: String
        var errors: [(String, JSON)] = []
        switch endpoint.wire {
        case .googleV2:
            ok = "{\"data\": {...}} in Google's shape."
            for code in ["400", "404", "413", "500", "503"] {
                errors.append((code, .object([("description", .string("Google error envelope {\"error\": {code, message, errors, status}}."))])))
            }
        case .ajaxV1:
            ok = "Always HTTP 200: {responseData, responseDetails, responseStatus}; failures carry their status in responseStatus."
        case .apy:
            ok = "{responseData, responseDetails, responseStatus} (translate, listPairs) or {code: score} (identifyLang)."
            for code in ["400", "413", "500", "503"] {
                errors.append((code, .object([("description", .string("APy error {\"status\": \"error\", code, message, explanation}."))])))
            }
        case .glossa:
            ok = endpoint.summary
        }
        return .object([("200", .object([("description", .string(ok))]))] + errors)
    }
}
