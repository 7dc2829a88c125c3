import AccessControl
import GlossaWire
import TranslationCore
import TranslationService

/// LibreTranslate's `POST /translate`: `q` a string or (in JSON) a list, `source` a code or
/// `auto`, `target`, `format` text or html, `alternatives`; answered in LibreTranslate's shapes.
///
/// Where Glossa differs, on purpose: a batch with `source=auto` gets one detection per text (not
/// one for the whole batch, LibreTranslate #779); no text is altered after translation
/// (LibreTranslate copies punctuation and case from the source and HTML-unescapes its output);
/// `alternatives` are empty lists, as the engines give one translation.
struct LibreTranslateAPI: Sendable {
    let service: TranslationService
    let languages: ServedLanguagesCache
    /// Whether keys are checked here (`/frontend/settings` tells LibreTranslate's front end).
    var keyMode: KeyMode = .off

    func translate(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let batch = p.isList("q")
        let texts = p.all("q")
        // LibreTranslate's `if not q`: absent, an empty string and an empty list are all missing.
        guard !texts.isEmpty, batch || !texts[0].isEmpty else { throw APIError.missingParameter("q") }
        guard batch || texts.count == 1 else {
            // Flask would keep the first q; Glossa never drops input silently.
            throw APIError.translation(.invalidArgument("q", given: "\(texts.count) values",
                                                        accepted: "one q, or a JSON list of texts for a batch"))
        }
        guard let sourceText = p.last("source"), !sourceText.isEmpty else { throw APIError.missingParameter("source") }
        guard let targetText = p.last("target"), !targetText.isEmpty else { throw APIError.missingParameter("target") }
        let alternatives = try Self.alternatives(p.last("alternatives"))
        let catalog = LibreTranslateCatalog(languages.get())
        let source: LanguageCode?
        if sourceText.lowercased() == "auto" {
            source = nil
        } else {
            guard let s = LibreTranslateCodes.language(sourceText), catalog.isSource(s) else { throw Self.notSupported(sourceText) }
            source = s
        }
        guard let target = LibreTranslateCodes.language(targetText), catalog.isTarget(target) else { throw Self.notSupported(targetText) }
        let formatText = p.last("format").flatMap { $0.isEmpty ? nil : $0 } ?? "text"
        guard let format = TextFormat(rawValue: formatText) else {
            throw APIError.translation(TranslationError(.invalidArgument, "\(formatText) format is not supported"))
        }
        let (translated, detections) = try await translations(texts, from: source, to: target, format: format, catalog: catalog)
        var body: [(String, JSON)] = [("translatedText", batch ? .array(translated.map(JSON.string)) : .string(translated[0]))]
        if source == nil {
            body.append(("detectedLanguage", batch ? .array(detections) : detections[0]))
        }
        if alternatives > 0 {
            // The engines give one translation per text, so there are no others to offer.
            body.append(("alternatives", batch ? .array(texts.map { _ in .array([]) }) : .array([])))
        }
        return EndpointResult(response: LibreTranslateOutput.render(.object(body)), characters: request.billedCharacters)
    }

    /// Each text translated, and (for `auto`) each text's detection as LibreTranslate writes it.
    /// Detection and grouping by language are the service's (``TranslationService/translate(_:from:to:options:)``).
    private func translations(_ texts: [String], from source: LanguageCode?, to target: LanguageCode, format: TextFormat,
                              catalog: LibreTranslateCatalog) async throws -> ([String], [JSON]) {
        let results: [TranslationResult]
        do {
            results = try await service.translate(texts, from: source, to: target, options: TranslationOptions(format: format))
        } catch let error as TranslationError where [.unsupportedPair, .unsupportedSourceLanguage, .unsupportedTargetLanguage, .notInstalled].contains(error.kind) {
            guard let source else { throw error }
            let t = LibreTranslateCodes.code(target), s = LibreTranslateCodes.code(source)
            throw APIError.translation(TranslationError(error.kind,
                "\(target.displayName()) (\(t)) is not available as a target language from \(source.displayName()) (\(s))"))
        }
        guard source == nil else { return (results.map(\.translatedText), []) }
        let detections = results.map { result in
            // Nothing detectable (empty, emoji, digits), or a language LibreTranslate does not
            // list: the text comes back as it is, with LibreTranslate's "nothing detected"
            // answer, {"confidence": 0.0, "language": "en"}; otherwise the language the text was
            // translated from, with its confidence.
            guard let source = result.source, let detection = result.detection,
                  let used = catalog.candidates(detection).first(where: { $0.language == source }) else {
                return Self.detection("en", 0)
            }
            return Self.detection(LibreTranslateCodes.code(used.language), used.confidence)
        }
        return (results.map(\.translatedText), detections)
    }

    /// `{"confidence": 90.0, "language": "fr"}`.
    static func detection(_ code: String, _ confidence: Double) -> JSON {
        .object([("confidence", .double(confidence)), ("language", .string(code))])
    }

    /// LibreTranslate's `"xx is not supported"` (the code lower-cased, as its `iso2model` does).
    static func notSupported(_ code: String) -> APIError {
        .translation(TranslationError(.unsupportedPair, "\(code.lowercased()) is not supported"))
    }

    /// `alternatives`: a whole number, negative meaning 0.
    static func alternatives(_ text: String?) throws -> Int {
        guard let text, !text.isEmpty else { return 0 }
        guard let n = Int(text) else {
            throw APIError.translation(TranslationError(.invalidArgument, "Invalid request: alternatives parameter is not a number"))
        }
        return max(0, n)
    }
}
