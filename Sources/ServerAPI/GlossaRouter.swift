import HTTPServer
import TranslationService

/// Settings of the HTTP API. Each field documents its default.
public struct ServerAPIConfiguration: Sendable {
    /// Where metrics are recorded; pass one to read them elsewhere. Default: a new registry.
    public var metrics: Metrics = Metrics()

    /// The defaults.
    public init() {}
}

/// Makes the handler for every Glossa endpoint over `service`: Google v2, AJAX v1, APy,
/// `/health`, `/metrics` and `/openapi.json`.
public func makeGlossaRouter(service: TranslationService,
                             configuration: ServerAPIConfiguration = ServerAPIConfiguration()) -> GlossaRouter {
    GlossaRouter(service: service, metrics: configuration.metrics)
}

/// Dispatches requests by path to their protocol's endpoint, answers CORS pre-flights, renders
/// routing errors in the protocol's envelope and records metrics for every request.
public struct GlossaRouter: HTTPHandler {
    let endpoints: [Endpoint]
    /// The registry every request is recorded in.
    public let metrics: Metrics

    init(service: TranslationService, metrics: Metrics) {
        self.metrics = metrics
        var endpoints = GoogleV2API(service: service).endpoints
            + AjaxV1API(service: service).endpoints
            + APyAPI(service: service).endpoints
            + HealthAPI(service: service, metrics: metrics, started: .now).endpoints
            + StreamingAPI(service: service).endpoints
        let documented = endpoints
        let document = OpenAPIDocument.make(endpoints: documented + [Self.openAPIEndpoint(nil)])
        endpoints.append(Self.openAPIEndpoint(document))
        endpoints += WebAppEndpoints.endpoints
        self.endpoints = endpoints
    }

    private static func openAPIEndpoint(_ document: JSON?) -> Endpoint {
        Endpoint(name: "openapi", path: "/openapi.json", methods: ["GET"], wire: .glossa,
                 summary: "This OpenAPI 3 document") { _ in
            EndpointResult(response: jsonResponse(document ?? .null, style: JSON.Style(pretty: true)))
        }
    }

    /// Routes one request and records it in ``metrics``.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        if request.method == "OPTIONS" {
            var response = HTTPResponse(status: 204)
            Self.addCORS(&response, preflight: true)
            return response
        }
        var path = request.path
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let name: String
        var result: EndpointResult
        if let endpoint = endpoints.first(where: { $0.path == path }) {
            name = endpoint.name
            let method = request.method == "HEAD" ? "GET" : request.method
            if endpoint.methods.contains(method) {
                result = await endpoint.handle(request)
            } else {
                result = errorResult(.methodNotAllowed(method: request.method, allowed: endpoint.methods), wire: endpoint.wire, request: request)
                result.response.headers.set("Allow", (endpoint.methods + ["OPTIONS"]).joined(separator: ", "))
            }
        } else {
            name = "unmatched"
            let wire: WireProtocol = path.hasPrefix("/language/") ? .googleV2 : path.hasPrefix("/ajax/") ? .ajaxV1 : .glossa
            result = errorResult(.notFound(path: request.path), wire: wire, request: request)
        }
        Self.addCORS(&result.response, preflight: false)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.record(endpoint: name, status: result.response.status, seconds: seconds,
                       characters: result.characters, error: result.error?.label)
        return result.response
    }

    /// Browsers may call every endpoint from any origin, as APy and LibreTranslate allow.
    private static func addCORS(_ response: inout HTTPResponse, preflight: Bool) {
        response.headers.set("Access-Control-Allow-Origin", "*")
        if preflight {
            response.headers.set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
            response.headers.set("Access-Control-Allow-Headers", "accept, cache-control, origin, x-requested-with, x-file-name, content-type, x-goog-api-key, authorization")
        }
    }
}
