import HTTPServer

/// Refuses, in the endpoint's own envelope, what no endpoint may read (built in, for every
/// request, routed or not):
/// - bytes that are not UTF-8 anywhere in the request (the HTTP server names the parts in
///   `invalidUTF8` and never repairs them): 400, naming the part;
/// - CONNECT and TRACE: no tunnel is ever opened and no request is echoed back (a 2xx to CONNECT
///   would say a tunnel was opened): 405, on every path.
struct RequestHygieneMiddleware: Middleware {
    func respond(to request: RoutedRequest, next: Responder) async -> EndpointResult {
        let method = request.http.method
        if method == "CONNECT" || method == "TRACE" {
            var result = request.reject(.methodNotAllowed(method: method, allowed: ["GET", "POST"]))
            result.response.headers.set("Allow", "GET, POST, OPTIONS")
            return result
        }
        if !request.http.invalidUTF8.isEmpty {
            let parts = request.http.invalidUTF8.joined(separator: ", ")
            return request.reject(.malformedBody(.encoding, "The request is not valid UTF-8 (in its \(parts)); send text as UTF-8, percent-encoded in URLs."))
        }
        return await next(request)
    }
}
