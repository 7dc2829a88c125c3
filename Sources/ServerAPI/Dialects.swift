import HTTPServer

/// The dialect that answers paths no registered dialect serves (see ``DialectRegistry`` for the
/// registered ones).
enum Dialects {
    /// Paths with no route: a plain-text 404 naming the path and pointing at `/openapi.json`,
    /// in no protocol's envelope (guessing one from the path would answer a client of one
    /// protocol in another's).
    static let unmatched = Dialect(
        name: "none", title: "No route", version: "1", summary: "Paths with no endpoint.", endpoints: [],
        errors: ErrorEnvelope(render: { error, _ in
            HTTPResponse.text(error.message + "\n", status: HTTPStatus.code(for: error))
        }, documentation: [(404, "text/plain: no endpoint at this path; every endpoint is listed at /openapi.json.")]),
        credentials: .none)
}
