import HTTPServer

/// The composition root of the HTTP API: the dialects a server speaks, mounted side by side.
/// A new protocol is one folder that makes a ``Dialect`` and one line here.
enum Dialects {
    static func standard(_ context: DialectContext) -> [Dialect] {
        [
            GoogleV2Dialect.make(context),
            GoogleV3Dialect.make(context),
            AjaxV1Dialect.make(context),
            APyDialect.make(context),
            LibreTranslateDialect.make(context),
            DeepLDialect.make(context),
            GlossaDialect.make(context),
            WebAppDialect.make(),
        ]
    }

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
