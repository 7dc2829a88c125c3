import Foundation
import GlossaWire
import TranslationCore
import TranslationService

/// Google v2's handlers: decode, call the service, encode in Google's shapes.
struct GoogleV2API: Sendable {
    let service: TranslationService
    /// Most `q` per request, as Google allows.
    static let maxSegments = 128

    func translate(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let texts = try segments(p)
        guard let targetText = nonEmpty(p.last("target")) else { throw APIError.missingParameter("target") }
        let target = try LanguageCode(parsing: targetText)
        let source = try nonEmpty(p.last("source")).map { try LanguageCode(parsing: $0) }
        let format = try nonEmpty(p.last("format")).map { try TextFormat(parsing: $0) } ?? .html
        let model = try nonEmpty(p.last("model")).map(Self.model)
        let results = try await service.translate(texts, from: source, to: target, options: TranslationOptions(format: format))
        let body = GoogleV2Wire.TranslateResponse(translations: results.map { result in
            GoogleV2Wire.Translation(
                translatedText: format == .html ? HTMLTextEscaper.escapeText(in: result.translatedText) : result.translatedText,
                detectedSourceLanguage: source == nil ? (result.source ?? .undetermined).googleCode : nil,
                model: model)
        })
        return EndpointResult(response: GoogleV2Output.render(body.json, request: request.http),
                              characters: request.billedCharacters)
    }

    func detect(_ request: RoutedRequest) async throws -> EndpointResult {
        let texts = try segments(try request.parameters())
        let detections = await service.detect(texts)
        // One inner list per q with exactly one entry: google-cloud-translate raises otherwise.
        let body = GoogleV2Wire.DetectResponse(detections: detections.map { d in
            [GoogleV2Wire.Detection(language: d.language?.googleCode ?? "und", confidence: d.confidence, isReliable: d.isReliable)]
        })
        return EndpointResult(response: GoogleV2Output.render(body.json, request: request.http))
    }

    func languages(_ request: RoutedRequest) throws -> EndpointResult {
        let p = try request.parameters()
        let display = try nonEmpty(p.last("target")).map { try LanguageCode(parsing: $0) }
        _ = try nonEmpty(p.last("model")).map(Self.model)
        // A target picker's list: only languages something translates into (a language that is
        // only ever a source, such as Basque, cannot be picked as a target).
        var entries: [(code: String, name: String?)] = service.listedTargetLanguages().map { code in
            (code.googleCode, display.map { code.displayName(in: $0) })
        }
        var seen = Set<String>()
        entries = entries.filter { seen.insert($0.code).inserted }
        if let display {
            // Google sorts a localized list by name; fold case and accents for a stable order.
            let locale = Locale(identifier: display.bcp47)
            entries.sort {
                let a = $0.name!.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: locale)
                let b = $1.name!.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: locale)
                return a == b ? $0.code < $1.code : a < b
            }
        } else {
            entries.sort { $0.code < $1.code }
        }
        let body = GoogleV2Wire.LanguagesResponse(languages: entries.map { GoogleV2Wire.Language(language: $0.code, name: $0.name) })
        return EndpointResult(response: GoogleV2Output.render(body.json, request: request.http))
    }

    /// The `q` values: at least one, at most ``maxSegments``.
    private func segments(_ p: Parameters) throws(APIError) -> [String] {
        let texts = p.all("q")
        guard !texts.isEmpty else { throw .missingParameter("q") }
        guard texts.count <= Self.maxSegments else { throw .tooManySegments(given: texts.count, limit: Self.maxSegments) }
        return texts
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// Google Basic offers `nmt`; `base` (the retired phrase-based model) is served by the same
    /// model today, so both answer `nmt`, as Google's do.
    static func model(_ name: String) throws -> String {
        switch name.lowercased() {
        case "nmt", "base": return "nmt"
        default: throw TranslationError.invalidArgument("model", given: name, accepted: "nmt, base")
        }
    }
}
