import GlossaWire

/// How an endpoint describes itself in `/openapi.json` (and LibreTranslate's `/spec`): the
/// document is built from these, so what is served and what is documented cannot drift apart.
struct EndpointDocs: Sendable {
    /// One line.
    var summary: String
    /// More, when the line is not enough (how a shared path tells protocols apart).
    var description: String? = nil
    /// The parameters, in the query for GET and in the query or body for POST.
    var parameters: [ParameterDoc] = []
    /// What a 200 answer holds.
    var success: String
    /// The 200 body's schema: a name in `components/schemas` (`google_v2.TranslateResponse`),
    /// defined in `OpenAPI/Schemas/<dialect>.json`. nil: a body that is not JSON (text, a file),
    /// documented as a string.
    var schema: String? = nil
    /// The 200 answer's media type.
    var successType: String = "application/json"
    /// A complete OpenAPI path item, for endpoints whose bodies the parameter list cannot
    /// describe (the streaming endpoint's JSON request and NDJSON answer); nil: generated.
    var operation: JSON? = nil
    /// Answers of this endpoint besides 200 and its dialect's errors (`/health`'s 503, a web
    /// file's 304), each with what it holds.
    var responses: [(status: Int, description: String)] = []
    /// The body schemas of those answers, by status, where it is not the dialect's error envelope
    /// (`/health`'s 503 is its 200's shape, a created glossary's 201 is the glossary); a status
    /// of 400 or more not listed holds the dialect's error envelope, and others no body.
    var responseSchemas: [Int: String] = [:]
}

/// One documented parameter.
struct ParameterDoc: Sendable {
    /// Its JSON type.
    enum Kind: Sendable {
        case string, integer, boolean
        /// A string, or (in a JSON body) a list of strings; repeatable in a query or form.
        case stringOrList
    }

    let name: String
    let kind: Kind
    let required: Bool
    let description: String
    /// Part of the path (`{filename}`) rather than the query or body.
    let inPath: Bool
    /// A request header (`If-None-Match`) rather than the query or body.
    let inHeader: Bool

    /// A string parameter.
    init(_ name: String, required: Bool = false, inPath: Bool = false, inHeader: Bool = false, _ description: String) {
        self.init(name, .string, required: required, inPath: inPath, inHeader: inHeader, description)
    }

    /// A parameter of `kind`.
    init(_ name: String, _ kind: Kind, required: Bool = false, inPath: Bool = false, inHeader: Bool = false,
         _ description: String) {
        self.name = name
        self.kind = kind
        self.required = required
        self.inPath = inPath
        self.inHeader = inHeader
        self.description = description
    }

    /// Where OpenAPI says it is when it is not in a body.
    var location: String { inPath ? "path" : inHeader ? "header" : "query" }
}
