import Documents
import GlossaWire
import HTTPServer
import TranslationCore

/// LibreTranslate's `/translate_file` and `/download_file/{filename}` (`app.py`): the file is
/// translated at once and kept for download under `UUID.name`, as LibreTranslate keeps it.
struct LibreTranslateFiles: Sendable {
    let documents: DocumentService
    let jobs: DocumentJobs
    let languages: ServedLanguagesCache

    /// The extensions LibreTranslate's front end offers (`supportedFilesFormat`).
    static let extensions = [".txt", ".html", ".rtf", ".docx", ".pptx", ".xlsx", ".odt", ".odp", ".ods"]

    func translateFile(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        // LibreTranslate's order: the file, then source, then target, then the name's extension.
        guard let file = p.file("file") else { throw APIError.missingParameter("file") }
        guard let sourceText = p.last("source"), !sourceText.isEmpty else { throw APIError.missingParameter("source") }
        guard let targetText = p.last("target"), !targetText.isEmpty else { throw APIError.missingParameter("target") }
        guard !file.fileName.isEmpty else { throw Self.invalid("Invalid request: empty file") }
        let ext = file.fileName.lastIndex(of: ".").map { String(file.fileName[$0...]).lowercased() } ?? ""
        guard Self.extensions.contains(ext) else { throw Self.invalid("Invalid request: file format not supported") }
        let catalog = LibreTranslateCatalog(languages.get())
        var source: LanguageCode?
        if sourceText.lowercased() != "auto" {
            guard let s = LibreTranslateCodes.language(sourceText), catalog.isSource(s) else { throw LibreTranslateAPI.notSupported(sourceText) }
            source = s
        }
        guard let target = LibreTranslateCodes.language(targetText), catalog.isTarget(target) else { throw LibreTranslateAPI.notSupported(targetText) }
        guard file.bytes.count <= documents.maxBytes else { throw APIError.payloadTooLarge(limit: documents.maxBytes) }
        let document: TranslatedDocument
        do { document = try await documents.translate(try documents.open(file.bytes, for: request), from: source, to: target).document } catch let error as DocumentError {
            throw error.code == .tooLarge ? APIError.payloadTooLarge(limit: documents.maxBytes) : Self.invalid("Invalid request: \(error.message)")
        }
        let name = Self.safeName(file.fileName)
        let stored = "\(DocumentJobs.identifier().lowercased()).\(name)"
        try await jobs.store(id: stored, key: "", name: name, document)
        let host = request.http.headers["Host"] ?? "127.0.0.1"
        let body: JSON = .object([("translatedFileUrl", .string("http://\(host)/download_file/\(stored)"))])
        return EndpointResult(response: LibreTranslateOutput.render(body), characters: request.billedCharacters)
    }

    func downloadFile(_ request: RoutedRequest) async throws -> EndpointResult {
        let name = request.pathParameters["filename"] ?? ""
        guard let (status, download) = try await jobs.status(name, key: nil), case .done(let bytes, let format, _) = status else {
            throw Self.invalid("Invalid filename")
        }
        let response = HTTPResponse(status: 200, headers: ["Content-Type": format.mimeType,
                                                           "Content-Disposition": "attachment; filename=\"\(download)\""], body: bytes)
        return EndpointResult(response: response)
    }

    /// werkzeug's `secure_filename`, roughly: ASCII letters, digits, `.`, `_` and `-` only.
    static func safeName(_ name: String) -> String {
        let base = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? name
        let kept = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        let trimmed = kept.drop { $0 == "." || $0 == "_" }
        return trimmed.isEmpty ? "file" : String(trimmed)
    }

    static func invalid(_ message: String) -> APIError { .translation(TranslationError(.invalidArgument, message)) }
}
