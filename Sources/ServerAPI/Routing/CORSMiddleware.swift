/// Lets browsers call every endpoint from any origin, as APy and LibreTranslate do: every answer
/// allows any origin, and a pre-flight (`OPTIONS`, answered 204 by the router) lists the methods
/// and the headers clients send (their key headers included).
struct CORSMiddleware: Middleware {
    func respond(to request: RoutedRequest, next: Responder) async -> EndpointResult {
        var result = await next(request)
        result.response.headers.set("Access-Control-Allow-Origin", "*")
        if request.http.method == "OPTIONS" {
            result.response.headers.set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
            result.response.headers.set("Access-Control-Allow-Headers",
                "accept, cache-control, origin, x-requested-with, x-file-name, content-type, x-goog-api-key, authorization")
            // How long a browser may reuse the pre-flight (LibreTranslate's 20 days).
            result.response.headers.set("Access-Control-Max-Age", "1728000")
        }
        return result
    }
}
