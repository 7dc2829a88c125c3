import Foundation
import GlossaWire
import HTTPServer
import TranslationCore
import TranslationService

/// Google Cloud Translation v3's handlers: read the proto3 JSON body, call the service, answer
/// in v3's shapes (`translations[]`, `languages[]`; camelCase; no `data` wrapper).
struct GoogleV3API: Sendable {
    let service: TranslationService
    let languages: ServedLanguagesCache
    /// The glossaries `glossaryConfig` names.
    let glossaries: GoogleV3Glossaries
    /// Most `contents` per request, as v3 allows.
    static let maxContents = 1024

    static let translateFields: Set<String> = ["contents", "mimeType", "sourceLanguageCode", "targetLanguageCode", "model",
                                               "glossaryConfig", "labels", "transliterationConfig"]
    static let detectFields: Set<String> = ["content", "mimeType", "model", "labels", "documentInputConfig"]

    func translateText(_ request: RoutedRequest) async throws -> EndpointResult {
        let (project, location) = Self.place(request)
        let body = try GoogleV3Body(request.http.body, known: Self.translateFields)
        let contents = try body.strings("contents")
        guard !contents.isEmpty else { throw APIError.missingParameter("contents") }
        guard contents.count <= Self.maxContents else { throw APIError.tooManySegments(given: contents.count, limit: Self.maxContents) }
        guard let target = try GoogleV3Fields.language(body, "targetLanguageCode") else { throw APIError.missingParameter("targetLanguageCode") }
        let source = try GoogleV3Fields.language(body, "sourceLanguageCode")
        let format = try GoogleV3Fields.format(body)
        let model = try GoogleV3Fields.model(body, project: project, location: location)
        var glossary: (Glossary, String)?
        if let config = try body.object("glossaryConfig", known: ["glossary", "ignoreCase", "contextualTranslationEnabled"]) {
            glossary = try await glossaries.glossary(for: config, request: request, source: source, target: target)
        }
        let results = try await service.translate(contents, from: source, to: target, options: TranslationOptions(format: format))
        let translations = render(results, format: format, model: model, detected: source == nil)
        var members: [(String, JSON)] = [("translations", .array(translations))]
        if let (glossary, name) = glossary {
            // v3 answers both: the translation without the glossary, and with it.
            let glossed = try await service.translate(contents, from: source, to: target, options: TranslationOptions(format: format, glossary: glossary))
            let config: JSON = .object([("glossary", .string(name))] + (glossary.ignoresCase ? [("ignoreCase", JSON.bool(true))] : []))
            members.append(("glossaryTranslations", .array(render(glossed, format: format, model: model, detected: false).map {
                .object($0.members + [("glossaryConfig", config)])
            })))
        }
        return EndpointResult(response: Self.render(.object(members)), characters: request.billedCharacters)
    }

    /// v3's Translation objects.
    private func render(_ results: [TranslationResult], format: TextFormat, model: String?, detected: Bool) -> [JSON] {
        results.map { result in
            // As v2 in html mode: the text between tags comes back HTML-escaped.
            var members: [(String, JSON)] = [("translatedText", .string(format == .html ? HTMLTextEscaper.escapeText(in: result.translatedText) : result.translatedText))]
            if let model { members.append(("model", .string(model))) }
            if detected { members.append(("detectedLanguageCode", .string((result.source ?? .undetermined).googleCode))) }
            return .object(members)
        }
    }

    func detectLanguage(_ request: RoutedRequest) async throws -> EndpointResult {
        let body = try GoogleV3Body(request.http.body, known: Self.detectFields)
        guard body["documentInputConfig"] == nil else {
            throw APIError.translation(TranslationError(.invalidArgument, "documentInputConfig is not supported here; send the text as content."))
        }
        guard let content = try body.string("content") else { throw APIError.missingParameter("content") }
        let format = try GoogleV3Fields.format(body)
        if let model = try body.string("model"), !model.hasSuffix("language-detection/default") {
            throw APIError.translation(TranslationError(.invalidArgument, "Model \(model) is not supported here: this server offers language-detection/default."))
        }
        let detection = await service.detect([content], format: format)[0]
        // "Will always return only one result" (v3's DetectLanguageResponse).
        let language: JSON = .object([("languageCode", .string((detection.language ?? .undetermined).googleCode)),
                                      ("confidence", .double(detection.confidence))])
        return EndpointResult(response: Self.render(.object([("languages", .array([language]))])))
    }

    func supportedLanguages(_ request: RoutedRequest) throws -> EndpointResult {
        let p = try request.parameters()
        let display = try p.last("displayLanguageCode").flatMap { $0.isEmpty ? nil : $0 }.map { text throws(APIError) in
            do { return try LanguageCode(parsing: text) } catch {
                throw APIError.translation(TranslationError(.invalidLanguage, "Display language is invalid: \(text)."))
            }
        }
        let served = languages.get()
        var seen = Set<String>()
        var entries: [(code: String, language: LanguageCode)] = []
        for language in served.listed where seen.insert(language.googleCode).inserted {
            entries.append((language.googleCode, language))
        }
        let list: [JSON] = entries.sorted { $0.code < $1.code }.map { entry in
            var members: [(String, JSON)] = [("languageCode", .string(entry.code))]
            if let display { members.append(("displayName", .string(entry.language.displayName(in: display)))) }
            members.append(("supportSource", .bool(served.isSource(entry.language))))
            members.append(("supportTarget", .bool(served.isTarget(entry.language))))
            return .object(members)
        }
        return EndpointResult(response: Self.render(.object([("languages", .array(list))])))
    }

    /// The project and location of the path (`global` when the path names none, as Google's
    /// project-level methods use the global location).
    static func place(_ request: RoutedRequest) -> (project: String, location: String) {
        (request.pathParameters["project"] ?? "-", request.pathParameters["location"] ?? "global")
    }

    /// v3's answers and errors: pretty-printed JSON, as Google's front end sends it.
    static func render(_ body: JSON, status: Int = 200) -> HTTPResponse {
        jsonResponse(body, status: status, style: JSON.Style(pretty: true))
    }
}
