import GlossaWire
import Synchronization

/// The API documents (`/openapi.json`, LibreTranslate's `/spec`), built once from the mounted
/// dialects. Endpoints that serve them are themselves part of those dialects, so the documents
/// are published after every dialect is made and before the first request.
final class APIDocuments: Sendable {
    private struct Built {
        var openAPI: JSON = .null
        var swagger: [String: JSON] = [:]
    }
    private let built = Mutex(Built())

    /// Builds the documents from `dialects`, made by `registry`'s registrations (called once, by
    /// the router).
    func publish(_ dialects: [Dialect], registry: DialectRegistry) {
        let openAPI = OpenAPIDocument.make(dialects: dialects, schemas: registry.schemas, description: registry.protocolsSentence)
        var swagger: [String: JSON] = [:]
        for dialect in dialects { swagger[dialect.name] = SwaggerDocument.make(dialect: dialect) }
        built.withLock { $0 = Built(openAPI: openAPI, swagger: swagger) }
    }

    /// The OpenAPI 3 document of every dialect.
    var openAPI: JSON { built.withLock { $0.openAPI } }

    /// A Swagger 2.0 document of one dialect's endpoints (what LibreTranslate serves at `/spec`).
    func swagger(_ dialect: String) -> JSON { built.withLock { $0.swagger[dialect] ?? .null } }
}
