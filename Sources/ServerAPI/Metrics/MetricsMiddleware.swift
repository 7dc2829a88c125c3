/// Records every request in ``Metrics``: endpoint name, status, latency, characters translated
/// and the error label. Outermost, so it sees what the other layers answered too.
struct MetricsMiddleware: Middleware {
    let metrics: Metrics

    func respond(to request: RoutedRequest, next: Responder) async -> EndpointResult {
        let start = ContinuousClock.now
        let result = await next(request)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.record(endpoint: request.endpointName, status: result.response.status, seconds: seconds,
                       characters: result.characters, error: result.error?.label)
        return result
    }
}
