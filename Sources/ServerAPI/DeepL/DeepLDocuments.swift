import Documents
import GlossaWire
import HTTPServer
import TranslationCore

/// DeepL's document API: `POST /v2/document` uploads and starts a translation, answering
/// `{document_id, document_key}`; `/v2/document/{id}` tells its status; `/v2/document/{id}/result`
/// gives the translated file once, then forgets it (DeepL's mock and service do the same).
struct DeepLDocuments: Sendable {
    let documents: DocumentService
    let jobs: DocumentJobs
    let languages: ServedLanguagesCache
    /// The glossaries `glossary_id` names.
    let glossaries: DeepLGlossaryStore

    func upload(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let catalog = DeepLCatalog(languages.get())
        let languages = try DeepLLanguageChoice(p)
        let (target, source) = (languages.target, languages.source)
        guard let file = p.file("file"), !file.bytes.isEmpty else { throw Self.bad("Invalid file data.") }
        guard file.bytes.count <= documents.maxBytes else { throw APIError.payloadTooLarge(limit: documents.maxBytes) }
        // A format this server does not read is refused now, not reported later as a failed job
        // (a damaged file of a known format fails as its job, as DeepL reports it). Opened once
        // for the request: its billing, the detection and the translation read this opening.
        do { _ = try documents.open(file.bytes, for: request) } catch where error.code == .unsupportedType {
            throw Self.bad("Invalid file data: \(error.message)")
        } catch {}
        // DeepL tells a document's format by its name's extension and refuses one that names no
        // format it reads (deepl-mock documents.js, lookupFormatInfo), even when the bytes could
        // be read as text; a name without an extension leaves the format to the bytes.
        let name = p.last("filename") ?? file.fileName
        if name.contains("."), DocumentFormat(fileName: name) == nil {
            throw Self.bad("Invalid file data: the file extension names no format this server translates (\(DocumentFormat.supportedList)).")
        }
        if let source, source.language == target.language { throw Self.bad("Source and target language are equal.") }
        // The options a document takes, checked as for text (no target here varies formality).
        try DeepLTranslateRequest.check(p, "formality", ["default", "more", "less", "prefer_more", "prefer_less"])
        if let formality = p.last("formality"), formality == "more" || formality == "less" {
            throw Self.bad("'formality' is not supported for given 'target_lang'.")
        }
        // The request is one DeepL would take: now whether the engines here serve its languages.
        try languages.checkServed(by: catalog)
        let glossary = try await glossaries.glossary(for: p, request: request, source: source, target: target)
        let id = DocumentJobs.identifier(), key = DocumentJobs.identifier() + DocumentJobs.identifier()
        let (documents, from, facts) = (self.documents, source, request.facts)
        try await jobs.start(id: id, key: key, name: name) {
            do {
                return try await documents.translate(try documents.open(file.bytes, for: request), from: from, to: target, glossary: glossary, refusingSameLanguage: true).document
            } catch {
                // The upload was answered and charged; the translation that failed is given back.
                await facts.refund()
                throw error
            }
        }
        return EndpointResult(response: DeepLDocuments.json(.object([("document_id", .string(id)), ("document_key", .string(key))])))
    }

    func status(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let id = request.pathParameters["document_id"] ?? ""
        guard let key = p.last("document_key") else { throw APIError.missingParameter("document_key") }
        guard let (status, _) = try await jobs.status(id, key: key) else { throw Self.notFound }
        var body: [(String, JSON)] = [("document_id", .string(id))]
        switch status {
        case .translating:
            body += [("status", .string("translating")), ("seconds_remaining", .int(1))]
        case .done(_, _, let characters):
            body += [("status", .string("done")), ("seconds_remaining", .int(0)), ("billed_characters", .int(characters))]
        case .failed(let message):
            body += [("status", .string("error")), ("error_message", .string(message)), ("message", .string(message))]
        }
        return EndpointResult(response: Self.json(.object(body)))
    }

    func result(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let id = request.pathParameters["document_id"] ?? ""
        guard let key = p.last("document_key") else { throw APIError.missingParameter("document_key") }
        guard let (status, name) = try await jobs.status(id, key: key) else { throw Self.notFound }
        guard case .done(let bytes, let format, _) = status else {
            return EndpointResult(response: jsonResponse(.object([("message", .string("Document translation is not done"))]), status: 503,
                                                         contentType: "application/json"))
        }
        try await jobs.remove(id)
        let response = HTTPResponse(status: 200, headers: ["Content-Type": format.mimeType,
                                                           "Content-Disposition": "attachment; filename=\"\(name)\""], body: bytes)
        return EndpointResult(response: response)
    }

    /// An unknown (or already downloaded) document: 404 in DeepL's envelope, as its other 404s.
    static let notFound = APIError(.notFound(path: "document"), "Document not found")

    static func bad(_ message: String) -> APIError { .translation(TranslationError(.invalidArgument, message)) }

    static func json(_ body: JSON) -> HTTPResponse { jsonResponse(body, contentType: "application/json") }
}
