import Documents
import Foundation
import GlossaWire
import TranslationCore

/// v3's `:translateDocument`: the document inline as base64 `content`, answered at once with the
/// translated bytes in `documentTranslation.byteStreamOutputs`, and with a `glossaryConfig` also
/// in `glossaryDocumentTranslation` (the document translated with the glossary), as v3 answers.
/// The formats are Google's that Glossa reads (docx, pptx, xlsx); pdf, and Cloud Storage in or
/// out, are refused in Google's envelope, never ignored.
struct GoogleV3Documents: Sendable {
    let documents: DocumentService
    /// The glossaries `glossaryConfig` names.
    let glossaries: GoogleV3Glossaries

    static let fields: Set<String> = ["sourceLanguageCode", "targetLanguageCode", "documentInputConfig", "documentOutputConfig", "model",
                                      "glossaryConfig", "labels", "customizedAttribution", "isTranslateNativePdfOnly",
                                      "enableShadowRemovalNativePdf", "enableRotationCorrection"]
    static let inputFields: Set<String> = ["content", "mimeType", "gcsSource"]
    static let outputFields: Set<String> = ["gcsDestination", "mimeType"]
    /// The formats Google's v3 translates that Glossa reads, by MIME type.
    static let formats: [String: DocumentFormat] = Dictionary(uniqueKeysWithValues: [DocumentFormat.docx, .pptx, .xlsx].map { ($0.mimeType, $0) })

    func translate(_ request: RoutedRequest) async throws -> EndpointResult {
        let (project, location) = GoogleV3API.place(request)
        let body = try GoogleV3Body(request.http.body, known: Self.fields)
        guard let target = try GoogleV3Fields.language(body, "targetLanguageCode") else { throw APIError.missingParameter("targetLanguageCode") }
        let source = try GoogleV3Fields.language(body, "sourceLanguageCode")
        let model = try GoogleV3Fields.model(body, project: project, location: location)
        var glossary: (Glossary, String)?
        if let config = try body.object("glossaryConfig", known: ["glossary", "ignoreCase", "contextualTranslationEnabled"]) {
            glossary = try await glossaries.glossary(for: config, request: request, source: source, target: target)
        }
        if let output = try body.object("documentOutputConfig", known: Self.outputFields), output["gcsDestination"] != nil {
            throw Self.bad("Cloud Storage is not available on this server: leave documentOutputConfig.gcsDestination out to get the document in the answer.")
        }
        guard let input = try body.object("documentInputConfig", known: Self.inputFields) else { throw APIError.missingParameter("documentInputConfig") }
        guard input["gcsSource"] == nil else {
            throw Self.bad("Cloud Storage is not available on this server: send the document inline as documentInputConfig.content (base64).")
        }
        guard let encoded = try input.string("content"), let bytes = Data(base64Encoded: encoded).map({ [UInt8]($0) }), !bytes.isEmpty else {
            throw Self.bad("documentInputConfig.content must be the document's bytes in base64.")
        }
        let mimeType = try input.string("mimeType")
        guard let format = try Self.format(of: bytes, declared: mimeType) else {
            throw Self.bad("Unsupported file type \(mimeType ?? "(not given)"): this server translates \(Self.formats.keys.sorted().joined(separator: ", ")).")
        }
        let translated: (document: TranslatedDocument, source: LanguageCode)
        var glossed: TranslatedDocument?
        do {
            let opened = try documents.open(bytes, for: request)
            translated = try await documents.translate(opened, from: source, to: target)
            if let (terms, _) = glossary { glossed = try await documents.translate(opened, from: source, to: target, glossary: terms).document }
        } catch let error as DocumentError {
            throw Self.bad("The document could not be translated: \(error.message)")
        }
        let detected = translated.source
        func json(_ result: TranslatedDocument) -> JSON {
            var document: [(String, JSON)] = [("byteStreamOutputs", .array([.string(Data(result.bytes).base64EncodedString())])),
                                              ("mimeType", .string(format.mimeType))]
            if source == nil { document.append(("detectedLanguageCode", .string(detected.googleCode))) }
            return .object(document)
        }
        var answer: [(String, JSON)] = [("documentTranslation", json(translated.document))]
        if let glossed, let (terms, name) = glossary {
            answer.append(("glossaryDocumentTranslation", json(glossed)))
            answer.append(("glossaryConfig", .object([("glossary", .string(name))] + (terms.ignoresCase ? [("ignoreCase", JSON.bool(true))] : []))))
        }
        if let model { answer.append(("model", .string(model))) }
        return EndpointResult(response: GoogleV3API.render(.object(answer)), characters: request.billedCharacters)
    }

    /// The document's format: what its bytes are, which must be one of Google's formats and
    /// agree with the declared MIME type when one is given. Nil: a format not translated here.
    static func format(of bytes: [UInt8], declared: String?) throws(APIError) -> DocumentFormat? {
        if let declared, declared.lowercased() == "application/pdf" {
            throw bad("Unsupported file type application/pdf: this server does not read PDF; send docx, pptx or xlsx.")
        }
        guard case .success(let format) = DocumentTranslator.identify(bytes), formats[format.mimeType] != nil else { return nil }
        if let declared, declared.lowercased() != format.mimeType {
            throw bad("The document is \(format.mimeType), not the \(declared) that mimeType says.")
        }
        return format
    }

    static func bad(_ message: String) -> APIError { .translation(TranslationError(.invalidArgument, message)) }
}
