import GlossaWire

/// The OpenAPI operations of the streaming endpoints, written out in full because their bodies
/// (a JSON request, an NDJSON answer) do not fit the parameter list other endpoints document.
enum StreamingDocumentation {
    private static func string(_ description: String) -> JSON {
        .object([("type", .string("string")), ("description", .string(description))])
    }

    private static let errorEnvelope: JSON = .object([
        ("description", .string("The batch was refused: Google's error envelope {\"error\": {code, message, errors, status}}, with a stable reason as errors[0].reason: "
                                + StreamErrorReason.all.map(\.rawValue).joined(separator: ", ") + ".")),
    ])

    /// `POST /glossa/v1/translate/stream`.
    static let stream: JSON = .object([("post", .object([
        ("operationId", .string("glossa_translate_stream_post")),
        ("summary", .string("Translate a batch, streaming one NDJSON line per text as soon as it is ready")),
        ("description", .string("""
            Each text is translated on its own and its line is written the moment it is done, so one slow text does not hold back \
            the others: lines arrive in completion order, not request order; match them by index (or clientIdentifier). \
            The answer is application/x-ndjson over chunked transfer encoding. Closing the connection cancels the texts not yet translated. \
            A text that fails gets an error line and the others go on. The last line is {"done": true, "count": N, "errors": E}; \
            an answer without it was cut short.
            """)),
        ("requestBody", .object([("required", .bool(true)), ("content", .object([("application/json", .object([("schema", .object([
            ("type", .string("object")),
            ("required", .array([.string("q"), .string("target")])),
            ("properties", .object([
                ("q", .object([("type", .string("array")), ("items", .object([("type", .string("string"))])),
                               ("description", .string("The texts, at most 1024."))])),
                ("target", string("Language to translate into (en, es, pt-BR).")),
                ("source", string("Language of every q; omitted or null: detected per text.")),
                ("format", string("text (default) or html.")),
                ("clientIdentifiers", .object([("type", .string("array")), ("items", .object([("type", .string("string")), ("nullable", .bool(true))])),
                                               ("description", .string("Optional, one per q, echoed on its line."))])),
            ])),
        ]))]))]))])),
        ("responses", .object([
            ("200", .object([
                ("description", .string("""
                    One JSON object per line. Result: {"index", "clientIdentifier"?, "translatedText", "sourceLanguage", "detectedSourceLanguage"?}. \
                    Error for one text: {"index", "clientIdentifier"?, "error": {"code", "reason", "message"}}. Last: {"done": true, "count", "errors"}.
                    """)),
                ("content", .object([("application/x-ndjson", .object([("schema", .object([("type", .string("string"))]))]))])),
            ])),
            ("400", errorEnvelope), ("413", errorEnvelope),
        ])),
    ]))])
}
