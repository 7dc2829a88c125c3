import AccessControl
import Documents
import Foundation
import HTTPServer
import TranslationCore
import TranslationService

/// Settings of the HTTP API. Each field documents its default.
public struct ServerAPIConfiguration: Sendable {
    /// Where metrics are recorded; pass one to read them elsewhere. Default: a new registry.
    public var metrics: Metrics = Metrics()
    /// Middleware run around every routed request, after the built-in metrics and CORS layers
    /// and before the endpoint, first outermost (authentication, quotas, rate limits).
    /// Default: none.
    public var middleware: [any Middleware] = []
    /// Keys, quotas and rate limits, checked after metrics and CORS and before ``middleware``;
    /// DeepL's `/v2/usage` and `GET /glossa/v1/usage` report from its store. Default: nil
    /// (nothing checked; `/v2/usage` counts since the server started).
    public var access: AccessController? = nil

    /// Limits on uploaded documents (size, unpacked size). Default: APy's 32 MB.
    public var documentLimits = DocumentTranslator.Limits()
    /// Documents translated at once; more wait. Default: 3 (APy's `--max-doc-pipes`).
    public var concurrentDocuments = 3
    /// The engine's analysis modes, for APy's morphology endpoints. Default: none.
    public var languageModes: (any LanguageModeRunning)?
    /// The engine's pipeline counts and stage-by-stage runs, for APy's /stats and /pipedebug. Default: none.
    public var pipelines: (any PipelineReporting)?
    /// Hosts APy's /translatePage may fetch pages from (`*`: any); empty: fetching is off. Default: empty.
    public var allowedFetchHosts: Set<String> = []
    /// Where glossaries are kept (in the key store's database). Default: nil (glossary
    /// endpoints answer 503, saying the server has no database).
    public var glossaries: GlossaryStore? = nil
    /// Where document jobs are kept when they must be found by other replicas (the database the
    /// replicas share). Default: nil (this process's memory).
    public var documentJobs: DocumentJobTable? = nil

    /// The largest request body any endpoint takes (Google v3's document in base64): what a
    /// proxy in front must let through (`glossa serve --print-body-limit`, scripts/cluster.sh).
    public var largestBodyBytes: Int { DocumentService.base64UploadLimit(documentBytes: documentLimits.maxBytes) }

    /// The protocols served (each registered once; every list of protocols is derived from it).
    /// Default: ``DialectRegistry/standard``, every protocol Glossa speaks.
    public var dialects: DialectRegistry = .standard

    /// The defaults.
    public init() {}
}

/// Makes the handler for every Glossa endpoint over `service`: every dialect of the
/// configuration's ``ServerAPIConfiguration/dialects`` with `/openapi.json` built from their
/// endpoints. A key policy naming a protocol that is not a keyed dialect there stops the process
/// (`glossa serve` refuses such a name before it gets here).
public func makeGlossaRouter(service: TranslationService,
                             configuration: ServerAPIConfiguration = ServerAPIConfiguration()) -> GlossaRouter {
    GlossaRouter(service: service, configuration: configuration)
}

/// Routes each request to its dialect's endpoint through the middleware chain: metrics, CORS,
/// the configured middleware, then the endpoint. A path with no route gets a plain-text 404
/// (see ``notFoundBody(path:)``): no protocol is guessed from a path it does not serve.
public struct GlossaRouter: HTTPHandler {
    /// The registry every request is recorded in.
    public let metrics: Metrics
    private let table: RouteTable
    /// Around matched requests: the built-in layers, then the configured ones.
    private let chain: [any Middleware]
    /// Around 404s, 405s and pre-flights: only the built-in layers (no route, so no key to check).
    private let builtIn: [any Middleware]
    /// The dialect that answers paths with no route.
    private let unmatched: Dialect
    /// The service, whose pairs are read again as engines change (``TranslationService/refreshIfDue()``).
    private let service: TranslationService
    /// Paths whose endpoints take larger bodies than the server's default (document uploads),
    /// with their limit: for ``HTTPServerConfiguration/largeBodyPaths``.
    public let largeBodyPaths: [String: Int]
    /// The same for paths with a parameter before a literal ending (`{project}:translateDocument`),
    /// by that ending: for ``HTTPServerConfiguration/largeBodyPathSuffixes``.
    public let largeBodyPathSuffixes: [String: Int]

    init(service: TranslationService, configuration: ServerAPIConfiguration) {
        self.service = service
        metrics = configuration.metrics
        let documents = APIDocuments()
        let languages = ServedLanguagesCache(service: service)
        // Walking every route takes seconds with many pairs: start it now, off the request path,
        // on a thread of its own (CPU-bound work must not hold one of the cooperative pool's few
        // threads, which serve every request).
        Thread.detachNewThread { _ = languages.get() }
        let context = DialectContext(service: service, metrics: metrics, started: .now, documents: documents,
                                     languages: languages,
                                     documentService: DocumentService(service: service, limits: configuration.documentLimits,
                                                                      concurrent: configuration.concurrentDocuments),
                                     documentJobs: DocumentJobs(table: configuration.documentJobs),
                                     languageModes: configuration.languageModes, pipelines: configuration.pipelines,
                                     apyStats: APyStats(), fetcher: PageFetcher(allowedHosts: configuration.allowedFetchHosts),
                                     access: configuration.access, glossaries: configuration.glossaries)
        let registry = configuration.dialects
        if let policy = configuration.access?.policy {
            // A policy naming a protocol the server does not key would check nothing under that
            // name while the operator believes it does.
            let unknown = registry.unknownNames(in: policy)
            precondition(unknown.isEmpty, "the key policy names \(unknown.joined(separator: ", ")), not keyed protocols of this server (\(registry.keyedNames.joined(separator: ", ")))")
        }
        let dialects = registry.dialects(context)
        documents.publish(dialects, registry: registry)
        table = RouteTable(dialects: dialects)
        var large: [String: Int] = [:], largeSuffixes: [String: Int] = [:]
        for dialect in dialects {
            for endpoint in dialect.endpoints {
                guard let limit = endpoint.maxBodyBytes else { continue }
                if endpoint.path.isLiteral {
                    large[endpoint.path.description] = limit
                } else if case .parameter(_, let suffix)? = endpoint.path.segments.last, !suffix.isEmpty {
                    largeSuffixes[suffix] = max(limit, largeSuffixes[suffix] ?? 0)
                } else {
                    // The server reads a body before routing, by path alone: a limit it cannot
                    // find by path would silently not apply.
                    preconditionFailure("\(endpoint.path): a larger body limit needs a literal path or a literal ending")
                }
            }
        }
        // What a proxy is told to let through must cover every endpoint's own limit, or some
        // uploads would meet the proxy's refusal instead of the protocol's.
        precondition((Array(large.values) + Array(largeSuffixes.values)).allSatisfy { $0 <= configuration.largestBodyBytes },
                     "an endpoint takes a larger body than ServerAPIConfiguration.largestBodyBytes")
        largeBodyPaths = large
        largeBodyPathSuffixes = largeSuffixes
        builtIn = [MetricsMiddleware(metrics: metrics), CORSMiddleware(), RequestHygieneMiddleware()]
        // Keys and limits after hygiene (a malformed request is refused before any store lookup),
        // before the operator's own middleware and the handler.
        let access: [any Middleware] = configuration.access.map { $0.policy.isActive ? [AccessMiddleware(access: $0)] : [] } ?? []
        chain = builtIn + access + configuration.middleware
        unmatched = Dialects.unmatched
    }

    /// The paths the router answers, with their methods (for the test that `/openapi.json`
    /// documents each).
    var servedRoutes: [String: Set<String>] { table.served }

    /// Routes one request.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        // A model installed or removed while the server runs is routed and listed from the
        // next request on, in every protocol (at most one read of the engines' pairs a second).
        await service.refreshIfDue()
        var response = await route(request)
        // A 2xx answer to CONNECT tells an intermediary that a tunnel is open (RFC 9110 §9.3.6),
        // so no protocol's envelope may give one: AJAX v1 puts its errors in a 200 body.
        if request.method == "CONNECT", (200..<300).contains(response.status) { response.status = 405 }
        return response
    }

    private func route(_ request: HTTPRequest) async -> HTTPResponse {
        // Decoded once: the claims that choose between dialects sharing a path read the same
        // query and body decodings as the chosen endpoint's parameters.
        let decoded = DecodedRequest(request)
        switch table.match(decoded) {
        case .found(let route, let pathParameters):
            let routed = Self.routed(decoded, route.endpoint.name, route.dialect, input: route.endpoint.input, pathParameters,
                                     billing: route.endpoint.billing, isOpen: route.endpoint.isOpen)
            let endpoint = route.endpoint
            let run = chain.wrapping { request in
                do { return try await endpoint.handle(request) } catch { return request.reject(.from(error)) }
            }
            return await run(routed).response
        case .methodNotAllowed(let route, let allowed, let pathParameters):
            let routed = Self.routed(decoded, route.endpoint.name, route.dialect, input: .none, pathParameters)
            let run = builtIn.wrapping { request in
                // OPTIONS is the CORS pre-flight (CORSMiddleware adds its headers) or a plain
                // question about the methods; either way the answer is the Allow list.
                var result = request.http.method == "OPTIONS"
                    ? EndpointResult(response: HTTPResponse(status: 204))
                    : request.reject(.methodNotAllowed(method: request.http.method, allowed: allowed))
                result.response.headers.set("Allow", (allowed + ["OPTIONS"]).joined(separator: ", "))
                return result
            }
            return await run(routed).response
        case .notFound:
            let routed = Self.routed(decoded, "unmatched", unmatched, input: .none, [:])
            let run = builtIn.wrapping { request in request.reject(.notFound(path: request.http.path)) }
            return await run(routed).response
        }
    }

    /// The 503 the HTTP server sends at shutdown for a request whose endpoint did not answer within
    /// the cancellation grace: the same error a cancelled endpoint gives, in its dialect's envelope
    /// (synchronous and cheap: no middleware, no parsing of a body).
    public func abandonedResponse(for request: HTTPRequest) -> HTTPResponse {
        let dialect: Dialect
        switch table.match(request) {
        case .found(let route, _), .methodNotAllowed(let route, _, _): dialect = route.dialect
        case .notFound: dialect = unmatched
        }
        return dialect.errors.response(for: .from(CancellationError()), request: request)
    }

    private static func routed(_ decoded: DecodedRequest, _ name: String, _ dialect: Dialect, input: ParameterInput,
                               _ pathParameters: [String: String],
                               billing: (@Sendable (RoutedRequest) -> Int)? = nil, isOpen: Bool = true) -> RoutedRequest {
        let request = decoded.http
        let parsed: Result<Parameters, APIError>?
        do { parsed = input == .none ? nil : .success(try Parameters.parse(decoded, input: input)) } catch {
            parsed = .failure(error)
        }
        let credential = dialect.credentials.read(request, parameters: try? parsed?.get())
        return RoutedRequest(http: request, endpointName: name, pathParameters: pathParameters,
                             credential: credential, dialect: dialect, facts: RequestFacts(billing: billing), isOpen: isOpen,
                             parsed: parsed)
    }
}
