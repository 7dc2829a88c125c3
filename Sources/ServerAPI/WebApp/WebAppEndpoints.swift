import HTTPServer
import WebApp

/// The web app (`/`, `/app.js`, `/app.css`, `/js/…`), the overlay (`/overlay.js`) and its demo
/// page (`/overlay-demo`): one GET endpoint per embedded file. They are routed like any endpoint
/// but left out of the OpenAPI document, which describes the API, not the pages.
enum WebAppEndpoints {
    static var endpoints: [Endpoint] {
        WebAssets.urlPaths.map { path in
            Endpoint(name: "web_app", path: path, methods: ["GET"], wire: .glossa,
                     summary: "The Glossa web app: \(path)") { request in
                // The router sends HEAD here too; WebAssets answers it without a body.
                guard let answer = WebAssets.response(method: request.method, path: path,
                                                      ifNoneMatch: request.headers["If-None-Match"]) else {
                    return errorResult(.notFound(path: request.path), wire: .glossa, request: request)
                }
                return EndpointResult(response: HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body))
            }
        }
    }
}
