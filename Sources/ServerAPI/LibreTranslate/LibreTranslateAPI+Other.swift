import GlossaWire
import HTTPServer
import TranslationCore

/// LibreTranslate's other endpoints: `/detect`, `/languages`, `/frontend/settings`, and the
/// file and suggestion endpoints, which answer LibreTranslate's own "disabled" errors.
extension LibreTranslateAPI {
    /// `POST /detect`: for one text, its candidates (at most three, 0–100); for a JSON list,
    /// one such list per text, in order (never one detection for the whole batch).
    func detect(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let texts = p.all("q")
        guard !texts.isEmpty, p.isList("q") || !texts[0].isEmpty else { throw APIError.missingParameter("q") }
        guard p.isList("q") || texts.count == 1 else {
            throw APIError.translation(.invalidArgument("q", given: "\(texts.count) values", accepted: "one q, or a JSON list of texts"))
        }
        let catalog = LibreTranslateCatalog(languages.get())
        let lists: [JSON] = await service.detect(texts).map { detection in
            let candidates = catalog.candidates(detection)
            // LibreTranslate's answer when nothing is detected.
            guard !candidates.isEmpty else { return .array([Self.detection("en", 0)]) }
            return .array(candidates.map { Self.detection(LibreTranslateCodes.code($0.language), $0.confidence) })
        }
        return EndpointResult(response: LibreTranslateOutput.render(p.isList("q") ? .array(lists) : lists[0]))
    }

    /// `GET /languages`: every language with the codes it translates into. Names are English,
    /// or in the language of `?lang=` / `Accept-Language` when that is a language, as
    /// LibreTranslate localizes them by its interface locale.
    func languages(_ request: RoutedRequest) throws -> EndpointResult {
        let display = Self.displayLanguage(request)
        let list: [JSON] = LibreTranslateCatalog(languages.get()).entries.map { entry in
            .object([("code", .string(entry.code)), ("name", .string(entry.language.displayName(in: display))),
                     ("targets", .array(entry.targets.map(JSON.string)))])
        }
        return EndpointResult(response: LibreTranslateOutput.render(.array(list)))
    }

    /// `GET /frontend/settings`: what LibreTranslate's web front end reads first.
    func frontendSettings(_ request: RoutedRequest) -> EndpointResult {
        let catalog = LibreTranslateCatalog(languages.get())
        let display = Self.displayLanguage(request)
        // LibreTranslate's target default is the interface locale when it has it, else its
        // second language; Glossa's: that locale, else English, else the first language.
        let target = catalog.entries.first { $0.language == display } ?? catalog.entries.first { $0.code == "en" } ?? catalog.entries.first
        let body: JSON = .object([
            ("charLimit", .int(-1)),
            ("frontendTimeout", .int(500)),
            ("apiKeys", .bool(keyMode != .off)),
            ("keyRequired", .bool(keyMode == .required)),
            ("suggestions", .bool(false)),
            ("filesTranslation", .bool(true)),
            ("supportedFilesFormat", .array(LibreTranslateFiles.extensions.map(JSON.string))),
            ("language", .object([
                ("source", .object([("code", .string("auto")), ("name", .string("Auto Detect"))])),
                ("target", .object([("code", .string(target?.code ?? "en")),
                                    ("name", .string(target?.language.displayName(in: display) ?? "English"))])),
            ])),
        ])
        return EndpointResult(response: LibreTranslateOutput.render(body))
    }

    /// The language names are shown in: `?lang=`, else the first `Accept-Language` tag, else English.
    static func displayLanguage(_ request: RoutedRequest) -> LanguageCode {
        let query = (try? FormDecoding.parse(Array(request.http.query.utf8), what: "query string")) ?? []
        let asked = query.last { $0.0 == "lang" }?.1
            ?? request.http.headers["Accept-Language"]?.split(separator: ",").first.map { String($0.split(separator: ";")[0]) }
        return asked.flatMap { try? LanguageCode(parsing: $0) } ?? "en"
    }

    /// Glossa does not translate files yet: LibreTranslate's answer when file translation is off.
}
