import HTTPServer

/// A request once its route is known: what every middleware and the endpoint's handler see.
///
/// A middleware learns here which endpoint and dialect the request is for and the caller's
/// credential as that dialect carries it, and answers in the endpoint's own envelope with
/// ``reject(_:)``.
public struct RoutedRequest: Sendable {
    /// The request as received.
    public let http: HTTPRequest
    /// The endpoint's bounded name (`google_v2_translate`; `unmatched` for a path with no route).
    public let endpointName: String
    /// The dialect's bounded name (`google_v2`, `libretranslate`, `deepl`, `glossa`).
    public var dialectName: String { dialect.name }
    /// `{name}` segments of the route's path, percent-decoded.
    public let pathParameters: [String: String]
    /// The caller's key, where this dialect's clients put it; nil when none was given.
    public let credential: Credential?

    let dialect: Dialect
    /// What the request is billed, counted once, and how to give it back (``RequestFacts``).
    let facts: RequestFacts
    /// Whether the endpoint is served without a key (``Endpoint/isOpen``).
    let isOpen: Bool
    /// The parameters, parsed once by the router (nil for endpoints that read the body themselves).
    let parsed: Result<Parameters, APIError>?

    /// The code points this request is billed (its endpoint's ``Billing``; 0 when it bills
    /// nothing), counted once: what a key is charged, what `/metrics` counts and what DeepL's
    /// `billed_characters` add up to.
    public var billedCharacters: Int { facts.billedCharacters(of: self) }

    /// The parameters the endpoint reads.
    /// - Throws: ``APIError`` when the request could not be parsed (oversize, bad JSON, not UTF-8).
    func parameters() throws(APIError) -> Parameters {
        switch parsed {
        case .success(let parameters): return parameters
        case .failure(let error): throw error
        case nil: return Parameters()
        }
    }

    /// The result for `error`, rendered in this endpoint's dialect (status, envelope, `Retry-After`).
    public func reject(_ error: APIError) -> EndpointResult {
        EndpointResult(response: dialect.errors.response(for: error, request: http), error: error)
    }
}
