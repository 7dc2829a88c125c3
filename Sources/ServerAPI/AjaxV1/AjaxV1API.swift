import GlossaWire
import TranslationCore
import TranslationService

/// The Google AJAX Language API v1 (`/ajax/services/language/translate`, `/detect`):
/// `?v=1.0&q=hello&langpair=en|ja`, an empty source meaning detect, HTTP 200 with the real status
/// in `responseStatus`.
enum AjaxV1Dialect {
    /// Its registration (``DialectRegistry/standard``).
    static let registration = DialectRegistration(
        name: "ajax_v1", title: "Google AJAX Language API v1", version: "1.0",
        summary: "The retired AJAX Language API's REST interface (GET or form POST), still used by old clients: HTTP 200 with the real status in responseStatus.",
        keys: .keyed(CredentialReader(places: [.parameter("key")]), requiredByBareFlag: true),
        help: "the AJAX Language API v1 (/ajax/services/language/translate, /detect)",
        schemas: PackageResources.ajax_v1_json, make: make)

    static func make(_ context: DialectContext) -> Dialect {
        let api = AjaxV1API(service: context.service)
        let version = ParameterDoc("v", "Protocol version, 1.0.")
        let callback = ParameterDoc("callback", "JSONP function name.")
        let success = "Always HTTP 200: {responseData, responseDetails, responseStatus}; failures carry their status in responseStatus."
        return Dialect(Self.registration,
            endpoints: [
                Endpoint("ajax_v1_translate", ["GET", "POST"], "/ajax/services/language/translate", input: .queryAndForm, docs: EndpointDocs(
                    summary: "AJAX Language API v1: translate q with langpair=src|dst (empty src detects)",
                    parameters: [version,
                                 ParameterDoc("q", .stringOrList, required: true, "Text to translate; repeat for several (then responseData is a list of envelopes)."),
                                 ParameterDoc("langpair", .stringOrList, required: true, "source|target (en|ja); an empty source (|ja) detects."),
                                 ParameterDoc("format", "html (default) or text."), callback],
                    success: success, schema: "ajax_v1.TranslateResponse"), billing: Billing.codePoints(of: "q")) { try await api.translate($0) },
                Endpoint("ajax_v1_detect", ["GET", "POST"], "/ajax/services/language/detect", input: .queryAndForm, docs: EndpointDocs(
                    summary: "AJAX Language API v1: detect the language of q",
                    parameters: [version, ParameterDoc("q", required: true, "Text to detect."), callback],
                    success: success, schema: "ajax_v1.DetectResponse")) { try await api.detect($0) },
            ],
            errors: ErrorEnvelope(render: AjaxEnvelope.errorResponse, documentation: []))
    }
}

/// AJAX v1's handlers.
struct AjaxV1API: Sendable {
    let service: TranslationService

    func translate(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        try Self.checkVersion(p)
        let texts = p.all("q")
        guard !texts.isEmpty else { throw APIError.missingParameter("q") }
        let pairs = p.all("langpair")
        guard !pairs.isEmpty else { throw APIError.missingParameter("langpair") }
        // Several q share one langpair, or each q has its own; anything else is ambiguous.
        guard pairs.count == 1 || pairs.count == texts.count else {
            throw APIError.translation(.invalidArgument("langpair", given: "\(pairs.count) values for \(texts.count) q",
                                                        accepted: "one langpair, or one per q"))
        }
        let format = try p.last("format").map { try TextFormat(parsing: $0) } ?? .html
        var items: [JSON] = []
        for (i, text) in texts.enumerated() {
            let item: JSON
            do {
                let (source, target) = try LangPair.parse(pairs[pairs.count == 1 ? 0 : i])
                let result = try await service.translate([text], from: source, to: target, options: TranslationOptions(format: format))[0]
                let translated = format == .html ? HTMLTextEscaper.escapeText(in: result.translatedText) : result.translatedText
                var data: [(String, JSON)] = [("translatedText", .string(translated))]
                if source == nil { data.append(("detectedSourceLanguage", .string((result.source ?? .undetermined).googleCode))) }
                item = AjaxEnvelope.success(.object(data))
            } catch {
                // With several q each gets its own status; with one, its failure is the answer.
                if texts.count == 1 { throw error }
                item = AjaxEnvelope.failure(.from(error))
            }
            items.append(item)
        }
        let body = texts.count == 1 ? items[0] : AjaxEnvelope.success(.array(items))
        return EndpointResult(response: AjaxEnvelope.render(body, request: request.http), characters: request.billedCharacters)
    }

    func detect(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        try Self.checkVersion(p)
        guard let text = p.last("q"), !text.isEmpty else { throw APIError.missingParameter("q") }
        try p.requireSingle("q", accepted: "one q per detect request")
        let d = await service.detect([text])[0]
        let data: JSON = .object([("language", .string(d.language?.googleCode ?? "und")),
                                  ("isReliable", .bool(d.isReliable)), ("confidence", .double(d.confidence))])
        return EndpointResult(response: AjaxEnvelope.render(AjaxEnvelope.success(data), request: request.http))
    }

    static func checkVersion(_ p: Parameters) throws {
        if let v = p.last("v"), v != "1.0" {
            throw TranslationError.invalidArgument("v", given: v, accepted: "1.0")
        }
    }
}

/// `langpair=src|dst` (also `src-dst`), with an empty `src` meaning "detect".
enum LangPair {
    static func parse(_ text: String) throws -> (LanguageCode?, LanguageCode) {
        let separator: Character = text.contains("|") ? "|" : "-"
        let parts = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw TranslationError.invalidLanguage(text, reason: "a langpair is source|target, e.g. en|es or eng|spa (empty source detects)")
        }
        let source = parts[0].isEmpty ? nil : try LanguageCode(parsing: parts[0])
        return (source, try LanguageCode(parsing: parts[1]))
    }
}
