import GlossaWire
import HTTPServer
import TranslationCore
import TranslationService

/// Apertium APy's `/translate`, `/listPairs` and `/identifyLang`, answering in APy's shapes with
/// ISO 639-3 codes (`eng`, `spa`) and accepting 639-1 too (mounted by ``APyDialect``).
struct APyAPI: Sendable {
    let service: TranslationService

    func translate(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        guard let pairText = p.last("langpair") else { throw APIError.missingParameter("langpair") }
        guard let text = p.last("q") else { throw APIError.missingParameter("q") }
        // APy keeps the last q silently; Glossa never drops input, so more than one is an error.
        guard p.all("q").count == 1 else {
            throw APIError.translation(.invalidArgument("q", given: "\(p.all("q").count) values",
                accepted: "one q per /translate request (send batches to /language/translate/v2)"))
        }
        let source: LanguageCode?, target: LanguageCode
        do { (source, target) = try LangPair.parse(pairText) } catch {
            throw APIError.translation(TranslationError(.invalidLanguage, "That pair is invalid, use e.g. eng|spa (\((error as? TranslationError)?.message ?? "\(error)"))"))
        }
        let format = try Self.format(p)
        // APy marks unknown words (`*`, `#`, `@`) unless markUnknown is no; the engine does it.
        let marks = !["no", "false", "0"].contains(p.last("markUnknown")?.lowercased() ?? "yes")
        let result: TranslationResult
        do {
            result = try await service.translate([text], from: source, to: target,
                                                 options: TranslationOptions(format: format, markUnknownWords: marks))[0]
        } catch let error as TranslationError where [.unsupportedPair, .unsupportedSourceLanguage, .unsupportedTargetLanguage, .notInstalled].contains(error.kind) {
            throw APIError.translation(TranslationError(error.kind, "That pair is not installed (\(error.message))"))
        }
        var data: [(String, JSON)] = [("translatedText", .string(result.translatedText))]
        if source == nil { data.append(("detectedSourceLanguage", .string(result.source.apertiumCode))) }
        let body = AjaxEnvelope.success(.object(data))
        return EndpointResult(response: APyEnvelope.render(body, request: request.http), characters: text.count)
    }

    func listPairs(_ request: RoutedRequest) throws -> EndpointResult {
        let p = try request.parameters()
        let from = try p.last("src").flatMap { $0.isEmpty ? nil : try LanguageCode(parsing: $0) }
        let withOldCodes = ["1", "true", "yes"].contains(p.last("include_deprecated_codes")?.lowercased() ?? "")
        var seen = Set<String>()
        var pairs: [JSON] = []
        for route in service.routes() where from == nil || route.source.base == from!.base {
            var spellings = [(route.source.apertiumCode, route.target.apertiumCode)]
            if withOldCodes { spellings.append((route.source.bcp47.replacingOccurrences("-", "_"), route.target.bcp47.replacingOccurrences("-", "_"))) }
            for (s, t) in spellings where seen.insert("\(s)|\(t)").inserted {
                pairs.append(.object([("sourceLanguage", .string(s)), ("targetLanguage", .string(t))]))
            }
        }
        return EndpointResult(response: APyEnvelope.render(AjaxEnvelope.success(.array(pairs)), request: request.http))
    }

    func identifyLang(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        guard let text = p.last("q"), !text.isEmpty else { throw APIError.missingParameter("q") }
        let d = await service.detect([text])[0]
        var scores: [(String, JSON)] = []
        if let language = d.language { scores.append((language.iso639_3, .double(d.confidence))) }
        for alternative in d.alternatives where !scores.contains(where: { $0.0 == alternative.language.iso639_3 }) {
            scores.append((alternative.language.iso639_3, .double(alternative.confidence)))
        }
        return EndpointResult(response: APyEnvelope.render(.object(scores), request: request.http))
    }

    /// APy's `format` (txt, html, html-noent, …) or `deformat`; HTML by default, as APy's is.
    static func format(_ p: Parameters) throws -> TextFormat {
        guard let value = p.last("format") ?? p.last("deformat"), !value.isEmpty else { return .html }
        switch value.lowercased() {
        case "txt", "text", "plain": return .text
        case "html", "html-noent", "html-alt": return .html
        default: throw TranslationError.invalidArgument("format", given: value, accepted: "txt, html, html-noent")
        }
    }
}

extension String {
    func replacingOccurrences(_ a: Character, _ b: Character) -> String { String(map { $0 == a ? b : $0 }) }
}
