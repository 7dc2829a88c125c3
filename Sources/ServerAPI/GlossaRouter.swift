import Foundation
import HTTPServer
import TranslationService

/// Settings of the HTTP API. Each field documents its default.
public struct ServerAPIConfiguration: Sendable {
    /// Where metrics are recorded; pass one to read them elsewhere. Default: a new registry.
    public var metrics: Metrics = Metrics()
    /// Middleware run around every routed request, after the built-in metrics and CORS layers
    /// and before the endpoint, first outermost (authentication, quotas, rate limits).
    /// Default: none.
    public var middleware: [any Middleware] = []

    /// The defaults.
    public init() {}
}

/// Makes the handler for every Glossa endpoint over `service`: every dialect of
/// ``Dialects/standard(_:)`` with `/openapi.json` built from their endpoints.
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

    init(service: TranslationService, configuration: ServerAPIConfiguration) {
        metrics = configuration.metrics
        let documents = APIDocuments()
        let languages = ServedLanguagesCache(service: service)
        // Walking every route takes seconds with many pairs: start it now, off the request path,
        // on a thread of its own (CPU-bound work must not hold one of the cooperative pool's few
        // threads, which serve every request).
        Thread.detachNewThread { _ = languages.get() }
        let context = DialectContext(service: service, metrics: metrics, started: .now, documents: documents,
                                     languages: languages)
        let dialects = Dialects.standard(context)
        documents.publish(dialects)
        table = RouteTable(dialects: dialects)
        builtIn = [MetricsMiddleware(metrics: metrics), CORSMiddleware(), RequestHygieneMiddleware()]
        chain = builtIn + configuration.middleware
        unmatched = Dialects.unmatched
    }

    /// The paths the router answers, with their methods (for the test that `/openapi.json`
    /// documents each).
    var servedRoutes: [String: Set<String>] { table.served }

    /// Routes one request.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch table.match(request) {
        case .found(let route, let pathParameters):
            let routed = Self.routed(request, route.endpoint.name, route.dialect, input: route.endpoint.input, pathParameters)
            let endpoint = route.endpoint
            let run = chain.wrapping { request in
                do { return try await endpoint.handle(request) } catch { return request.reject(.from(error)) }
            }
            return await run(routed).response
        case .methodNotAllowed(let route, let allowed, let pathParameters):
            let routed = Self.routed(request, route.endpoint.name, route.dialect, input: .none, pathParameters)
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
            let routed = Self.routed(request, "unmatched", unmatched, input: .none, [:])
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

    private static func routed(_ request: HTTPRequest, _ name: String, _ dialect: Dialect, input: ParameterInput,
                               _ pathParameters: [String: String]) -> RoutedRequest {
        let parsed: Result<Parameters, APIError>?
        do { parsed = input == .none ? nil : .success(try Parameters.parse(request, input: input)) } catch {
            parsed = .failure(error)
        }
        let credential = dialect.credentials.read(request, parameters: try? parsed?.get())
        return RoutedRequest(http: request, endpointName: name, pathParameters: pathParameters,
                             credential: credential, dialect: dialect, parsed: parsed)
    }
}
