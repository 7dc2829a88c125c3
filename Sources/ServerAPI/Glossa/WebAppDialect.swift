import HTTPServer
import WebApp

/// The web app (`/`, `/app.js`, `/app.css`, `/js/…`), the overlay (`/overlay.js`) and its demo
/// page (`/overlay-demo`): one GET endpoint per embedded file. They are routed like any endpoint
/// but left out of the API documents, which describe the API, not the pages.
enum WebAppDialect {
    static func make() -> Dialect {
        Dialect(
            name: "web_app", title: "Web app", version: "1", summary: "The pages of the web app.",
            endpoints: WebAssets.urlPaths.map { path in
                Endpoint("web_app", ["GET"], path, docs: EndpointDocs(summary: "The Glossa web app: \(path)", success: "The page", listed: false)) { request in
                    // The router sends HEAD here too; WebAssets answers it without a body.
                    guard let answer = WebAssets.response(method: request.http.method, path: path,
                                                          ifNoneMatch: request.http.headers["If-None-Match"]) else {
                        throw APIError.notFound(path: request.http.path)
                    }
                    return EndpointResult(response: HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body))
                }
            },
            // The same JSON envelope as Glossa's own endpoints: scripts that probe the server read it.
            errors: ErrorEnvelope(render: { error, _ in StreamingError.response(for: error) }, documentation: []),
            credentials: .none)
    }
}
