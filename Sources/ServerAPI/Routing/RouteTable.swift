import HTTPServer

/// Finds the endpoint for a request: by path (literal paths by lookup, patterns in order), then by
/// method, then, where dialects share a path and method, by which one claims the request.
/// A plain value, so routing is tested without a server.
struct RouteTable: Sendable {
    /// An endpoint with its dialect.
    struct Route: Sendable {
        let endpoint: Endpoint
        let dialect: Dialect
    }

    /// What a request matched.
    enum Match {
        /// An endpoint takes it.
        case found(Route, pathParameters: [String: String])
        /// The path has routes, none for this method (`OPTIONS` included: the router answers it).
        case methodNotAllowed(Route, allowed: [String], pathParameters: [String: String])
        /// No route has this path.
        case notFound
    }

    private var literal: [String: [Route]] = [:]
    private var patterns: [Route] = []
    /// Every path (as documented: `/download_file/{filename}`) with the methods it answers
    /// (HEAD aside, which every GET route answers): what `/openapi.json` must list.
    private(set) var served: [String: Set<String>] = [:]

    init(dialects: [Dialect]) {
        for dialect in dialects {
            for endpoint in dialect.endpoints {
                served[endpoint.path.description, default: []].formUnion(endpoint.methods)
                let route = Route(endpoint: endpoint, dialect: dialect)
                if endpoint.path.isLiteral {
                    literal[endpoint.path.description, default: []].append(route)
                } else {
                    patterns.append(route)
                }
            }
        }
    }

    /// The match for `request`. HEAD is served by GET routes.
    func match(_ request: HTTPRequest) -> Match { match(DecodedRequest(request)) }

    /// The match for a request whose decodings the claims read (and the endpoint reads after).
    func match(_ decoded: DecodedRequest) -> Match {
        let request = decoded.http
        var path = request.path
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        var candidates = literal[path] ?? []
        var parameters: [String: String] = [:]
        if candidates.isEmpty {
            for route in patterns {
                guard let found = route.endpoint.path.match(path) else { continue }
                if candidates.isEmpty { parameters = found }
                if route.endpoint.path.description == candidates.first?.endpoint.path.description || candidates.isEmpty {
                    candidates.append(route)
                }
            }
        }
        guard let first = candidates.first else { return .notFound }
        let method = request.method == "HEAD" ? "GET" : request.method
        let serving = candidates.filter { $0.endpoint.methods.contains(method) }
        guard !serving.isEmpty else {
            var allowed: [String] = []
            for route in candidates { for m in route.endpoint.methods where !allowed.contains(m) { allowed.append(m) } }
            return .methodNotAllowed(first, allowed: allowed, pathParameters: parameters)
        }
        if serving.count == 1 { return .found(serving[0], pathParameters: parameters) }
        let chosen = serving.first { $0.endpoint.claims?(decoded) == true }
            ?? serving.first { $0.endpoint.claims == nil }
            ?? serving[0]
        return .found(chosen, pathParameters: parameters)
    }
}
