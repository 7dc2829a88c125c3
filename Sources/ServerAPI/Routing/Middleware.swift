/// Code that runs around every routed request, after its route is known: CORS and metrics
/// (built in), and the seam for authentication, quotas and rate limits. A middleware may answer
/// itself (`request.reject(.rateLimited(retryAfter: 30))`, rendered in the endpoint's envelope)
/// or call `next` and adjust what comes back.
///
/// ```swift
/// struct RequireKey: Middleware {
///     func respond(to request: RoutedRequest, next: Responder) async -> EndpointResult {
///         guard request.credential != nil else { return request.reject(.unauthorized(.missing)) }
///         return await next(request)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Answers `request`, usually by calling `next`.
    func respond(to request: RoutedRequest, next: Responder) async -> EndpointResult
}

/// The rest of the chain: the next middleware, or the endpoint itself.
public typealias Responder = @Sendable (RoutedRequest) async -> EndpointResult

extension Array where Element == any Middleware {
    /// `endpoint` wrapped by these middlewares, the first outermost.
    func wrapping(_ endpoint: @escaping Responder) -> Responder {
        reversed().reduce(endpoint) { next, middleware in
            { request in await middleware.respond(to: request, next: next) }
        }
    }
}
