import Foundation
import HTTPServer
import TranslationCore
import TranslationService

/// Google Cloud Translation v2 (Basic) at `/language/translate/v2`, `/v2/detect`, `/v2/languages`.
/// Parses every encoding real clients send (see ``Parameters``) and answers in Google's exact shapes.
struct GoogleV2API: Sendable {
    let service: TranslationService
    /// Most `q` per request, as Google allows.
    static let maxSegments = 128

    var endpoints: [Endpoint] {
        [
            Endpoint(name: "google_v2_translate", path: "/language/translate/v2", methods: ["GET", "POST"], wire: .googleV2,
                     summary: "Google v2: translate one or more q into target") { await translate($0) },
            Endpoint(name: "google_v2_detect", path: "/language/translate/v2/detect", methods: ["GET", "POST"], wire: .googleV2,
                     summary: "Google v2: detect the language of each q") { await detect($0) },
            Endpoint(name: "google_v2_languages", path: "/language/translate/v2/languages", methods: ["GET", "POST"], wire: .googleV2,
                     summary: "Google v2: supported languages, named in target when given") { await languages($0) },
        ]
    }

    func translate(_ request: HTTPRequest) async -> EndpointResult {
        do {
            let p = try Parameters.parse(request, json: true)
            let texts = try segments(p)
            guard let targetText = nonEmpty(p.last("target")) else { throw APIError.missingParameter("target") }
            let target = try LanguageCode(parsing: targetText)
            let source = try nonEmpty(p.last("source")).map { try LanguageCode(parsing: $0) }
            let format = try nonEmpty(p.last("format")).map { try TextFormat(parsing: $0) } ?? .html
            let model = try nonEmpty(p.last("model")).map(Self.model)
            let results = try await service.translate(texts, from: source, to: target, options: TranslationOptions(format: format))
            let translations: [JSON] = results.map { result in
                var members: [(String, JSON)] = [
                    ("translatedText", .string(format == .html ? HTMLTextEscaper.escapeText(in: result.translatedText) : result.translatedText)),
                ]
                if source == nil { members.append(("detectedSourceLanguage", .string(result.source.googleCode))) }
                if let model { members.append(("model", .string(model))) }
                return .object(members)
            }
            let body: JSON = .object([("data", .object([("translations", .array(translations))]))])
            return EndpointResult(response: GoogleV2Output.render(body, request: request),
                                  characters: texts.reduce(0) { $0 + $1.count })
        } catch {
            return errorResult(.from(error), wire: .googleV2, request: request)
        }
    }

    func detect(_ request: HTTPRequest) async -> EndpointResult {
        do {
            let p = try Parameters.parse(request, json: true)
            let texts = try segments(p)
            let detections = await service.detect(texts)
            // One inner list per q with exactly one entry: google-cloud-translate raises otherwise.
            let lists: [JSON] = detections.map { d in
                .array([.object([
                    ("language", .string(d.language?.googleCode ?? "und")),
                    ("isReliable", .bool(d.isReliable)),
                    ("confidence", .double(d.confidence)),
                ])])
            }
            let body: JSON = .object([("data", .object([("detections", .array(lists))]))])
            return EndpointResult(response: GoogleV2Output.render(body, request: request))
        } catch {
            return errorResult(.from(error), wire: .googleV2, request: request)
        }
    }

    func languages(_ request: HTTPRequest) async -> EndpointResult {
        do {
            let p = try Parameters.parse(request, json: true)
            let display = try nonEmpty(p.last("target")).map { try LanguageCode(parsing: $0) }
            _ = try nonEmpty(p.last("model")).map(Self.model)
            var seen = Set<String>()
            let codes = service.languages().filter { seen.insert($0.googleCode).inserted }
            var entries: [(code: String, name: String?)] = codes.map { code in
                (code.googleCode, display.map { code.displayName(in: $0) })
            }
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
            let list: [JSON] = entries.map { entry in
                .object([("language", .string(entry.code))] + (entry.name.map { [("name", JSON.string($0))] } ?? []))
            }
            let body: JSON = .object([("data", .object([("languages", .array(list))]))])
            return EndpointResult(response: GoogleV2Output.render(body, request: request))
        } catch {
            return errorResult(.from(error), wire: .googleV2, request: request)
        }
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
