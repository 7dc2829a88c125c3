import GlossaWire
import TranslationCore

/// v3's glossary paths, answered truthfully until Glossa stores glossaries: the list is empty,
/// no glossary is found, and making one is refused in v3's envelope (never a plain 404 that
/// names no protocol, never a success that stored nothing).
enum GoogleV3Glossaries {
    static func list(_ request: RoutedRequest) throws -> EndpointResult {
        _ = try request.parameters()
        // proto3 JSON leaves an empty list out: ListGlossariesResponse with no glossaries is {}.
        return EndpointResult(response: GoogleV3API.render(.object([])))
    }

    static func create(_ request: RoutedRequest) throws -> EndpointResult {
        throw APIError.translation(TranslationError(.invalidArgument,
            "Glossaries cannot be created on this server yet: it stores no Cloud Translation v3 glossaries."))
    }

    static func find(_ request: RoutedRequest) throws -> EndpointResult {
        let (project, location) = GoogleV3API.place(request)
        let name = "projects/\(project)/locations/\(location)/glossaries/\(request.pathParameters["glossary"] ?? "")"
        throw APIError(.notFound(path: name), "Glossary not found: \(name).")
    }
}
