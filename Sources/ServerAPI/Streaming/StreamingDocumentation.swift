import GlossaWire
import TranslationCore

/// The OpenAPI operations of the streaming endpoints, written out in full because their bodies
/// (a JSON request, an NDJSON answer) do not fit the parameter list other endpoints document.
enum StreamingDocumentation {
    private static func string(_ description: String) -> JSON {
        .object([("type", .string("string")), ("description", .string(description))])
    }

    /// The reasons a line of a text that failed can carry: every service error kind's.
    static let lineReasons: [StreamErrorReason] = {
        var seen: [StreamErrorReason] = []
        for kind in TranslationError.Kind.allCases where !seen.contains(StreamErrorReason(kind)) { seen.append(StreamErrorReason(kind)) }
        return seen
    }()

    /// The reasons a refused batch (a 4xx or 5xx answer, no lines) can carry: the request's own
    /// faults and the server's refusals, and the language and value errors of its fields.
    static let batchReasons: [StreamErrorReason] = [
        .missingParameter, .malformedRequest, .payloadTooLarge, .tooManySegments, .invalidLanguage, .invalidArgument,
        .unauthorized, .forbidden, .rateLimited, .quotaExceeded, .unavailable,
    ]

    private static func reasons(_ list: [StreamErrorReason]) -> String { list.map(\.rawValue).joined(separator: ", ") }

    private static let errorEnvelope: JSON = .object([
        ("description", .string("The batch was refused (no lines): Google's error envelope {\"error\": {code, message, errors, status}}, with a stable reason as errors[0].reason: "
                                + reasons(batchReasons) + ".")),
    ])

    private static func object(_ required: [String], _ properties: [(String, JSON)]) -> JSON {
        .object([("type", .string("object")), ("required", .array(required.map(JSON.string))), ("properties", .object(properties))])
    }

    /// The three kinds of line, as schemas.
    private static let lineSchema: JSON = .object([("oneOf", .array([
        object(["index", "translatedText", "sourceLanguage"], [
            ("index", .object([("type", .string("integer"))])), ("clientIdentifier", string("The text's identifier, when given.")),
            ("translatedText", string("The translation.")), ("sourceLanguage", string("The source language.")),
            ("detectedSourceLanguage", string("The detected language, when source was not given.")),
        ]),
        object(["index", "error"], [
            ("index", .object([("type", .string("integer"))])), ("clientIdentifier", string("The text's identifier, when given.")),
            ("error", object(["code", "reason", "message"], [
                ("code", .object([("type", .string("integer")), ("description", .string("The HTTP status this error would have had alone."))])),
                ("reason", .object([("type", .string("string")), ("enum", .array(lineReasons.map { .string($0.rawValue) }))])),
                ("message", string("What went wrong, for people.")),
            ])),
        ]),
        object(["done", "count", "errors"], [
            ("done", .object([("type", .string("boolean"))])), ("count", .object([("type", .string("integer"))])),
            ("errors", .object([("type", .string("integer")), ("description", .string("How many lines were errors."))])),
        ]),
    ]))])

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
                ("glossary", .object([("type", .string("array")),
                                      ("items", .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])),
                                      ("description", .string("Terms whose translation is fixed, each [source term, target term]; needs source."))])),
                ("glossaryId", string("A stored glossary (made with /v2/glossaries or glossa glossary create) for source → target; needs source.")),
            ])),
        ]))]))]))])),
        ("responses", .object([
            ("200", .object([
                ("description", .string("""
                    One JSON object per line (each line's schema is given). Result: {"index", "clientIdentifier"?, "translatedText", "sourceLanguage", "detectedSourceLanguage"?}. \
                    Error for one text: {"index", "clientIdentifier"?, "error": {"code", "reason", "message"}}, reason one of \(reasons(lineReasons)) \
                    (an unsupported target or pair, for instance, fails each line with its reason, not the batch). Last: {"done": true, "count", "errors"}.
                    """)),
                ("content", .object([("application/x-ndjson", .object([("schema", lineSchema)]))])),
            ])),
            ("400", errorEnvelope), ("413", errorEnvelope),
        ])),
    ]))])
}
