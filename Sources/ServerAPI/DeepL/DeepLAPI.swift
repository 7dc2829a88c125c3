import AccessControl
import GlossaWire
import HTTPServer
import TranslationCore
import TranslationService

/// DeepL API v2's handlers: `/v2/translate`, `/v2/usage`, `/v2/languages`.
struct DeepLAPI: Sendable {
    let service: TranslationService
    let languages: ServedLanguagesCache
    let ledger: CharacterLedger
    /// The key store's usage, when keys are checked; else ``ledger``'s counts since start.
    let access: AccessController?
    /// The glossaries `glossary_id` names.
    let glossaries: DeepLGlossaryStore
    /// What `/v2/usage` reports as the limit: Glossa sets none, and DeepL reports an account
    /// without a cost limit this way (10^12 characters).
    static let unlimited = 1_000_000_000_000
    /// What `detected_source_language` says of a text with no language in it: DeepL's answer
    /// always names a language, and English is what it names for digits and symbols.
    static let undeterminedSource: LanguageCode = "en"

    func translate(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let r = try DeepLTranslateRequest(p, catalog: DeepLCatalog(languages.get()))
        let glossary = try await glossaries.glossary(for: p, request: request, source: r.source, target: r.target)
        let results = try await service.translate(r.texts, from: r.source, to: r.target,
                                                  options: TranslationOptions(format: r.format, glossary: glossary, markup: r.markup))
        // DeepL counts characters as Unicode code points, source text only: per text as
        // ``Billing`` counts them, so the texts' billed_characters add up to the request's charge.
        let billed = r.texts.map { Billing.codePoints($0) }
        ledger.add(request.billedCharacters, for: request.credential?.key)
        let translations: [JSON] = results.enumerated().map { i, result in
            // Always present: the given source_lang, or the detected language. DeepL always names
            // a language; text with none in it (digits, emoji) comes back unchanged as EN.
            let detected = r.sourceCode ?? result.source.map(DeepLCodes.source) ?? DeepLCodes.source(Self.undeterminedSource)
            var members: [(String, JSON)] = [("detected_source_language", .string(detected)),
                                             ("text", .string(result.translatedText))]
            // deepl-python always asks for it and reads it with int(): it must be there when asked.
            if r.showBilledCharacters { members.append(("billed_characters", .int(billed[i]))) }
            if let model = r.modelType { members.append(("model_type_used", .string(model))) }
            return .object(members)
        }
        return EndpointResult(response: Self.render(.object([("translations", .array(translations))])),
                              characters: request.billedCharacters)
    }

    /// The key's count and limit this month from the key store (keys are checked), else what
    /// was translated with this credential since the server started.
    func usage(_ request: RoutedRequest) async throws -> EndpointResult {
        _ = try request.parameters()
        var count = ledger.count(for: request.credential?.key)
        var limit = Self.unlimited
        if let access, access.store != nil, let secret = request.credential?.key {
            do {
                if let usage = try await access.usage(secret: secret) {
                    count = usage.characters
                    limit = usage.key.charactersPerMonth ?? Self.unlimited
                }
            } catch {
                throw APIError.unavailable(retryAfter: 1, message: "The key store is unavailable; retry shortly.")
            }
        }
        return EndpointResult(response: Self.render(.object([("character_count", .int(count)), ("character_limit", .int(limit))])))
    }

    func languages(_ request: RoutedRequest) throws -> EndpointResult {
        let p = try request.parameters()
        let type = p.last("type") ?? "source"
        guard type == "source" || type == "target" else {
            throw APIError.translation(TranslationError(.invalidArgument, "Parameter 'type' is invalid. 'source' and 'target' are valid values."))
        }
        let list: [JSON] = DeepLCatalog(languages.get()).list(targets: type == "target").map { entry in
            // No engine here varies formality.
            .object([("language", .string(entry.code)), ("name", .string(entry.name))]
                    + (type == "target" ? [("supports_formality", JSON.bool(false))] : []))
        }
        return EndpointResult(response: Self.render(.array(list)))
    }

    static func render(_ body: JSON) -> HTTPResponse {
        jsonResponse(body, contentType: "application/json")
    }
}
