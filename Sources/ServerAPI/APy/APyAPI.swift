import GlossaWire
import HTTPServer
import TranslationCore
import TranslationService

/// Apertium APy's endpoints, answering in APy's shapes and with APy's messages, with ISO 639-3
/// codes (`eng`, `spa`) and 639-1 accepted (mounted by ``APyDialect``). Each handler follows
/// the APy handler of the same name (`apertium_apy/handlers/`), down to the order in which it
/// reads its parameters, since that order decides which error a request with several problems
/// gets.
struct APyAPI: Sendable {
    let service: TranslationService
    let languages: ServedLanguagesCache
    let modes: (any LanguageModeRunning)?
    let stats: APyStats
    let documents: DocumentService
    let fetcher: PageFetcher

    /// APy's explanations, verbatim.
    static let invalidPair = "That pair is invalid, use e.g. eng|spa"
    static let pairNotInstalled = "That pair is not installed"
    static let modeNotInstalled = "That mode is not installed"

    /// An APy 400 with `explanation`.
    static func badRequest(_ explanation: String) -> APIError {
        .translation(TranslationError(.invalidArgument, explanation))
    }

    /// A required parameter, or Tornado's `Missing argument NAME`.
    static func required(_ p: Parameters, _ name: String) throws -> String {
        guard let value = p.last(name) else { throw APIError.missingParameter(name) }
        return value
    }

    // MARK: /translate

    func translate(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let pairText = try Self.required(p, "langpair")
        let text = try Self.required(p, "q")
        let (source, target) = try pair(pairText)
        // Counted as APy counts it: once the pair is read.
        if let source { stats.noteUse("\(source.apertiumCode)-\(target.apertiumCode)") }
        // APy keeps the last q silently; Glossa never drops input, so more than one is an error.
        try p.requireSingle("q", accepted: "one q per /translate request (send batches to /language/translate/v2)")
        let format = try Self.format(p)
        let marks = Self.marksUnknown(p)
        let start = ContinuousClock.now
        // Always the marking pipeline, as APy runs it; no marks means APy's strip of `*`.
        let result = try await translateOrRefuse([text], from: source, to: target, options: TranslationOptions(format: format, markUnknownWords: true))[0]
        stats.noteTranslation(start: start, characters: request.billedCharacters)
        let translated = marks ? result.translatedText : APyUnknownMarks.strip(result.translatedText)
        var data: [(String, JSON)] = [("translatedText", .string(translated))]
        if source == nil { data.append(("detectedSourceLanguage", .string((result.source ?? .undetermined).apertiumCode))) }
        return EndpointResult(response: APyEnvelope.render(AjaxEnvelope.success(.object(data)), request: request.http), characters: request.billedCharacters)
    }

    /// `langpair` as APy reads it: exactly two codes split on `|` (else "That pair is invalid");
    /// codes Glossa cannot read are, as in APy, a pair that is not installed. An empty source
    /// (`|spa`) detects, as AJAX v1 does: APy would answer that the pair is not installed.
    func pair(_ text: String) throws -> (LanguageCode?, LanguageCode) {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw Self.badRequest(Self.invalidPair) }
        guard let target = try? LanguageCode(parsing: String(parts[1])) else { throw Self.badRequest(Self.pairNotInstalled) }
        if parts[0].isEmpty { return (nil, target) }
        guard let source = try? LanguageCode(parsing: String(parts[0])) else { throw Self.badRequest(Self.pairNotInstalled) }
        return (source, target)
    }

    /// Translates, answering APy's "That pair is not installed" when no route serves the pair.
    func translateOrRefuse(_ texts: [String], from source: LanguageCode?, to target: LanguageCode,
                           options: TranslationOptions) async throws -> [TranslationResult] {
        do {
            return try await service.translate(texts, from: source, to: target, options: options)
        } catch let error as TranslationError where [.unsupportedPair, .unsupportedSourceLanguage, .unsupportedTargetLanguage, .notInstalled].contains(error.kind) {
            throw Self.badRequest(Self.pairNotInstalled)
        }
    }

    /// APy's `markUnknown`: marks when it is `yes` (the default), `true` or `1`, exactly as
    /// written: `/translate`, `/translateChain` and `/translateRaw` compare it as it is (`True` is
    /// no marks there), `/translateDoc` lower-cases it first (`ignoringCase`).
    static func marksUnknown(_ p: Parameters, ignoringCase: Bool = false) -> Bool {
        let value = p.last("markUnknown") ?? "yes"
        return ["yes", "true", "1"].contains(ignoringCase ? value.lowercased() : value)
    }

    /// APy's `format` (txt, html, html-noent, …) or `deformat`; HTML by default, as APy's is.
    static func format(_ p: Parameters) throws -> TextFormat {
        guard let value = p.last("format") ?? p.last("deformat"), !value.isEmpty else { return .html }
        switch value.lowercased().replacing("apertium-des", with: "") {
        case "txt", "text", "plain": return .text
        case "html", "html-noent", "html-alt": return .html
        default: throw TranslationError.invalidArgument("format", given: value, accepted: "txt, html, html-noent")
        }
    }

    // MARK: /list, /listPairs

    func list(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let query = p.last("q") ?? "pairs"
        let body: JSON
        switch query {
        case "pairs":
            body = AjaxEnvelope.success(.array(try pairs(p)))
        case "analyzers", "analysers":
            body = await modeList(.analyzer)
        case "generators":
            body = await modeList(.generator)
        case "taggers", "disambiguators":
            body = await modeList(.tagger)
        case "spellers":
            body = .object([])
        default:
            throw Self.badRequest("Expecting q argument to be one of analysers, generators, spellers, disambiguators, or pairs")
        }
        return EndpointResult(response: APyEnvelope.render(body, request: request.http))
    }

    /// The installed pairs, as APy lists them: without `src`, the pairs an engine translates
    /// directly; with `src`, every language reachable from it (through other languages too,
    /// as APy's chains reach them and as Glossa's /translate serves them).
    private func pairs(_ p: Parameters) throws -> [JSON] {
        let routes = languages.get().routes
        let selected: [Route]
        if let src = p.last("src") {
            let from = try? LanguageCode(parsing: src)
            selected = routes.filter { from != nil && $0.source.apertiumCode == from!.apertiumCode && $0.target != $0.source }
        } else {
            selected = routes.filter { !$0.isPivot }
        }
        let deprecated = p.has("include_deprecated_codes")
        var out: [JSON] = []
        var seen = Set<String>()
        for route in selected {
            let (s, t) = (route.source.apertiumCode, route.target.apertiumCode)
            guard seen.insert("\(s)|\(t)").inserted else { continue }
            out.append(.object([("sourceLanguage", .string(s)), ("targetLanguage", .string(t))]))
            if deprecated {
                out.append(.object([("sourceLanguage", .string(Self.alpha2(route.source))), ("targetLanguage", .string(Self.alpha2(route.target)))]))
            }
        }
        return out
    }

    /// APy's `to_alpha2_code`: the 639-1 code where there is one, the variant kept (`pt_BR`).
    static func alpha2(_ code: LanguageCode) -> String {
        let apertium = code.apertiumCode
        let language = withdrawnAlpha2[code.language] ?? code.language
        guard let underscore = apertium.firstIndex(of: "_") else { return language }
        return language + apertium[underscore...]
    }

    /// 639-1 codes that ISO withdrew but APy's code table still lists (and so its
    /// `include_deprecated_codes` does): Serbo-Croatian's `sh`, withdrawn in 2000.
    private static let withdrawnAlpha2: [String: String] = ["hbs": "sh"]

    private func modeList(_ kind: LanguageModeInfo.Kind) async -> JSON {
        let all = await modes?.languageModes() ?? []
        return .object(all.filter { $0.kind == kind }.map { ($0.key, .string($0.name)) })
    }

    // MARK: /identifyLang

    func identifyLang(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let text = try Self.required(p, "q")
        guard !text.isEmpty else { throw Self.badRequest("Missing q argument") }
        let d = await service.detect([text])[0]
        var scores: [(String, JSON)] = []
        if let language = d.language { scores.append((language.iso639_3, .double(d.confidence))) }
        for alternative in d.alternatives where !scores.contains(where: { $0.0 == alternative.language.iso639_3 }) {
            scores.append((alternative.language.iso639_3, .double(alternative.confidence)))
        }
        return EndpointResult(response: APyEnvelope.render(.object(scores), request: request.http))
    }
}
