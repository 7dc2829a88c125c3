import AccessControl
import TranslationCore
import TranslationService
import HTTPServer

/// A wire protocol as mounted on a server: its name, its endpoints (each documenting itself), how
/// it renders errors and how it reads a caller's credential. The router mounts dialects side by
/// side; each is made by its ``DialectRegistration``, registered in ``DialectRegistry``.
struct Dialect: Sendable {
    /// A bounded identifier (`google_v2`, `libretranslate`): metrics labels, OpenAPI tags.
    let name: String
    /// What people call it (`Google Cloud Translation v2`).
    let title: String
    /// The version of the protocol served (`v2`, `1.9.6`), for the API documents.
    let version: String
    /// One paragraph for the OpenAPI document: what it is and how clients point at it.
    let summary: String
    /// Its routes.
    let endpoints: [Endpoint]
    /// Its error envelope: the one place this protocol's errors are rendered.
    let errors: ErrorEnvelope
    /// Where its clients put their key.
    let credentials: CredentialReader

    /// The dialect of `registration` (its name, title, version, summary and keys) with `endpoints`
    /// and `errors`.
    init(_ registration: DialectRegistration, endpoints: [Endpoint], errors: ErrorEnvelope) {
        self.init(name: registration.name, title: registration.title, version: registration.version,
                  summary: registration.summary, endpoints: endpoints, errors: errors, credentials: registration.credentials)
    }

    /// A dialect from its parts (the unmatched paths' dialect; tests).
    init(name: String, title: String, version: String, summary: String, endpoints: [Endpoint], errors: ErrorEnvelope,
         credentials: CredentialReader) {
        self.name = name
        self.title = title
        self.version = version
        self.summary = summary
        self.endpoints = endpoints
        self.errors = errors
        self.credentials = credentials
    }
}

/// How one dialect renders an ``APIError``, and how its errors are documented.
struct ErrorEnvelope: Sendable {
    /// The response for an error on a request of this dialect.
    let render: @Sendable (APIError, HTTPRequest) -> HTTPResponse
    /// The statuses this envelope uses, each with a one-line description, for OpenAPI.
    let documentation: [(status: Int, description: String)]

    /// The error response, with `Retry-After` when the error has one.
    func response(for error: APIError, request: HTTPRequest) -> HTTPResponse {
        var response = render(error, request)
        if let seconds = error.retryAfter { response.headers.set("Retry-After", String(seconds)) }
        return response
    }
}

/// Everything a dialect is built from.
struct DialectContext: Sendable {
    /// The service every endpoint calls.
    let service: TranslationService
    /// The metrics registry (for `/metrics`).
    let metrics: Metrics
    /// When the router was made (for `/health`'s uptime).
    let started: ContinuousClock.Instant
    /// The API documents, published once every dialect is mounted.
    let documents: APIDocuments
    /// The served languages and routes, computed once (LibreTranslate and DeepL list and check them).
    let languages: ServedLanguagesCache
    /// Document translation, shared by every dialect's document endpoints.
    let documentService: DocumentService
    /// Translated documents waiting for download (LibreTranslate, DeepL).
    let documentJobs: DocumentJobs
    /// The engine's analysis modes (APy's /analyze, /generate, /perWord, /calcCoverage); nil: none.
    let languageModes: (any LanguageModeRunning)?
    /// The engine's pipeline counts and stage-by-stage runs (APy's /stats, /pipedebug); nil: none.
    let pipelines: (any PipelineReporting)?
    /// APy's /stats counters.
    let apyStats: APyStats
    /// Page fetches for APy's /translatePage, from allowed hosts only.
    let fetcher: PageFetcher
    /// Keys, quotas and limits, when configured (usage endpoints read it; LibreTranslate's
    /// front-end settings say whether keys are asked for).
    let access: AccessController?
    /// Glossaries (DeepL's endpoints and `glossary_id`); nil: none can be made.
    let glossaries: GlossaryStore?
}
