import GlossaWire
import HTTPServer

/// What an endpoint takes its parameters from; the router parses them once, before any
/// middleware, so a credential reader and the handler see the same values.
enum ParameterInput: Sendable {
    /// Nothing: the handler reads the request itself (the streaming endpoint's JSON, web assets).
    case none
    /// The query string and an `application/x-www-form-urlencoded` body (APy and AJAX v1 take no JSON).
    case queryAndForm
    /// The query string and a form or JSON body (see ``Parameters``).
    case queryFormOrJSON
    /// As ``queryAndForm``, and a `multipart/form-data` body with files (APy's /translateDoc).
    case upload
    /// As ``queryFormOrJSON``, and a `multipart/form-data` body with files (LibreTranslate's
    /// /translate_file, DeepL's /v2/document).
    case uploadOrJSON
    /// The query string; the body is a JSON object the handler reads itself, field by field
    /// (Google v3's proto3 JSON, whose nesting the flat parameters cannot hold).
    case queryAndOwnJSON
}

/// One route: its methods, path pattern and handler, and the documentation it brings to the
/// OpenAPI document.
struct Endpoint: Sendable {
    /// A bounded metrics label (`google_v2_translate`).
    let name: String
    /// Methods answered; HEAD is answered wherever GET is.
    let methods: [String]
    /// The path (`/translate`, `/download_file/{filename}`); a trailing slash in a request is ignored.
    let path: PathPattern
    /// Where the parameters are read from.
    let input: ParameterInput
    /// For an endpoint that shares its path and method with another dialect's: whether a request
    /// is one of its own (APy's `/translate` claims requests with `langpair`). nil: it takes
    /// what the others do not claim.
    let claims: (@Sendable (DecodedRequest) -> Bool)?
    /// Its OpenAPI description.
    let docs: EndpointDocs
    /// A body limit above the server's default, for uploads (documents); nil: the default.
    let maxBodyBytes: Int?
    /// Characters a request is billed, as this protocol bills them (see ``Billing``); nil: not
    /// billed. The key middleware charges them to the caller's key before the handler runs.
    let billing: (@Sendable (RoutedRequest) -> Int)?
    /// Served without a key or a rate limit even where its protocol checks keys: health, metrics
    /// and documents, and what a protocol's own clients read before they have a key
    /// (LibreTranslate's `/languages` and `/frontend/settings`). Default: false.
    let isOpen: Bool
    /// The handler: decodes, calls the service, encodes. A thrown error is rendered in the
    /// dialect's envelope.
    let handle: @Sendable (RoutedRequest) async throws -> EndpointResult

    init(_ name: String, _ methods: [String], _ path: String, input: ParameterInput = .none,
         claims: (@Sendable (DecodedRequest) -> Bool)? = nil, maxBodyBytes: Int? = nil, docs: EndpointDocs,
         billing: (@Sendable (RoutedRequest) -> Int)? = nil, open: Bool = false,
         handle: @escaping @Sendable (RoutedRequest) async throws -> EndpointResult) {
        self.name = name
        self.methods = methods
        self.path = PathPattern(path)
        self.input = input
        self.claims = claims
        self.docs = docs
        self.maxBodyBytes = maxBodyBytes
        self.billing = billing
        self.isOpen = open
        self.handle = handle
    }
}

/// What an endpoint (or a middleware) hands back: the response, and what metrics need to know.
public struct EndpointResult: Sendable {
    /// The response to send.
    public var response: HTTPResponse
    /// Characters of input translated (0 for other endpoints or on error).
    public var characters: Int
    /// The error, when the request failed.
    public var error: APIError?

    /// Makes a result.
    public init(response: HTTPResponse, characters: Int = 0, error: APIError? = nil) {
        self.response = response
        self.characters = characters
        self.error = error
    }
}

/// A JSON response with the given style and status.
func jsonResponse(_ value: JSON, status: Int = 200, style: JSON.Style = JSON.Style(),
                  contentType: String = "application/json; charset=UTF-8") -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Array(value.serialized(style).utf8))
}
