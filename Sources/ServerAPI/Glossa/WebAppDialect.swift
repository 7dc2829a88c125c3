import HTTPServer
import WebApp

/// The web app (`/`, `/app.js`, `/app.css`, `/js/…`), the overlay (`/overlay.js`) and its demo
/// page (`/overlay-demo`): one GET endpoint per embedded file, each in `/openapi.json` with its
/// media type, so that the document lists every path the server answers.
enum WebAppDialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "web_app", title: "Web app", version: "1",
        summary: "The browser app at /, the overlay script any page can include (/overlay.js) and its demo page (/overlay-demo): files compiled into the binary, nothing from the network.",
        keys: .none,
        help: "in a browser, the web app at / and /overlay.js to translate any page (demo at /overlay-demo)",
        schemas: nil, make: { _ in make() })

    static func make() -> Dialect {
        let ifNoneMatch = ParameterDoc("If-None-Match", inHeader: true, "The ETag of a copy the client has: 304 when it is current.")
        return Dialect(Self.registration,
            endpoints: WebAssets.urlPaths.map { path in
                let type = WebAssets.asset(at: path)?.contentType ?? "application/octet-stream"
                let docs = EndpointDocs(summary: summary(of: path), parameters: [ifNoneMatch],
                                        success: "The file, with its ETag.", successType: type,
                                        responses: [(304, "Not modified: If-None-Match names the current ETag.")])
                return Endpoint("web_app", ["GET"], path, docs: docs) { request in
                    // The router sends HEAD here too; the HTTP server leaves the body out of the answer.
                    guard let answer = WebAssets.response(method: request.http.method, path: path,
                                                          ifNoneMatch: request.http.headers["If-None-Match"]) else {
                        throw APIError.notFound(path: request.http.path)
                    }
                    return EndpointResult(response: HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body))
                }
            },
            // The same JSON envelope as Glossa's own endpoints: scripts that probe the server read it.
            errors: ErrorEnvelope(render: { error, _ in StreamingError.response(for: error) }, documentation: []))
    }

    /// One line for the document: what the file at `path` is.
    private static func summary(of path: String) -> String {
        switch path {
        case "/": return "The web app: translate, batch and round trip"
        case "/overlay.js": return "The overlay: <script src=\"…/overlay.js\" defer></script> translates any page"
        case "/overlay-demo": return "A sample article with the overlay"
        default: return "A file of the web app: \(path)"
        }
    }
}
