import AccessControl

/// Keys, rate limits and quotas around every routed request: hands the request's dialect, key,
/// addresses and billed characters to the ``AccessController``, renders a refusal in the
/// endpoint's own envelope (``refusal(_:)``), and gives the charge back when the endpoint fails.
/// Runs after the route is known (the dialect decides where the key is and how errors look) and
/// before the endpoint, so a refused request costs no translation.
struct AccessMiddleware: Middleware {
    let access: AccessController

    func respond(to request: RoutedRequest, next: Responder) async -> EndpointResult {
        // Health checks, metrics and documents, and what clients read before they have a key.
        if request.isOpen { return await next(request) }
        // A body too large to read may hold the key (LibreTranslate's api_key): the 413 is the
        // answer that helps, and it costs no key anything.
        if case .tooLarge(let limit) = request.http.bodyStatus { return request.reject(.payloadTooLarge(limit: limit)) }
        let attempt = AccessController.Attempt(
            dialect: request.dialectName, secret: request.credential?.key, peer: request.http.clientAddress,
            forwardedFor: request.http.headers.values("X-Forwarded-For"),
            characters: { request.billedCharacters })
        switch await access.admit(attempt) {
        case .failure(let refusal):
            return request.reject(Self.refusal(refusal))
        case .success(let admission):
            // Work that fails after the answer (a document job) gives the charge back through
            // the request's facts; a failed answer gives it back here. Either way only once.
            let access = self.access
            request.facts.onRefund { await access.settle(admission, succeeded: false) }
            let result = await next(request)
            if result.error != nil || result.response.status >= 400 { await request.facts.refund() }
            return result
        }
    }

    /// The ``APIError`` each dialect renders for a refusal (its status, envelope and wording).
    static func refusal(_ refusal: AccessController.Refusal) -> APIError {
        switch refusal {
        case .missingKey: return .unauthorized(.missing)
        case .invalidKey: return .unauthorized(.invalid)
        case .rateLimited(let seconds, let perMinute, let scope):
            // LibreTranslate's flask-limiter wording, which its clients show ("Slowdown: 20 per 1 minute").
            return .rateLimited(retryAfter: seconds, scope: scope == .key ? .key : .address, message: "\(perMinute) per 1 minute")
        case .quotaExceeded(let used, let limit, let seconds):
            return .quotaExceeded("Character quota exceeded: \(used) of \(limit) characters used this month.", retryAfter: seconds)
        case .unavailable(let seconds):
            return .unavailable(retryAfter: seconds, message: "The key store is unavailable; retry shortly.")
        }
    }
}
