import Foundation
import GlossaWire
import TranslationCore

/// APy's `/listLanguageNames`, `/stats`, `/getLocale` and `/pipedebug`.
extension APyAPI {
    func getLocale(_ request: RoutedRequest) throws -> EndpointResult {
        guard let header = request.http.headers["Accept-Language"] else {
            throw Self.badRequest("Accept-Language missing from request headers")
        }
        return EndpointResult(response: APyEnvelope.render(.array(Self.locales(header).map { .string($0) }), request: request.http))
    }

    /// APy's reading of `Accept-Language`: each comma-separated item up to its `;`, as written.
    static func locales(_ header: String) -> [String] {
        header.split(separator: ",", omittingEmptySubsequences: false).map { String($0.split(separator: ";", omittingEmptySubsequences: false).first ?? "") }
    }

    /// Names from ICU (Foundation's locale data): for `languages` (space-separated) as given,
    /// else for every language Glossa serves and then every other ISO 639 language ICU names in
    /// the locale (APy lists every language its database names, not only the installed ones),
    /// keyed by the 639-1 code where there is one, as APy's database keys them. The locale is
    /// `locale`, else the first `Accept-Language` that ICU has names in, else English.
    func listLanguageNames(_ request: RoutedRequest) throws -> EndpointResult {
        let p = try request.parameters()
        let requested = p.last("languages").map { $0.split(separator: " ", omittingEmptySubsequences: false).map(String.init) }
        var locale: LanguageCode?
        if let given = p.last("locale") {
            // APy answers {} for a locale its database has no names in.
            guard let known = Self.namesLocale(given) else {
                return EndpointResult(response: APyEnvelope.render(.object([]), request: request.http))
            }
            locale = known
        } else if let header = request.http.headers["Accept-Language"] {
            locale = Self.locales(header).lazy.compactMap { Self.namesLocale($0.trimmingCharacters(in: .whitespaces)) }.first
        }
        let display = locale ?? "en"
        var names: [(String, JSON)] = []
        if let requested, p.last("locale") != nil {
            for code in requested where !names.contains(where: { $0.0 == code }) {
                guard let language = try? LanguageCode(parsing: code), Self.hasName(language, in: display) else { continue }
                names.append((code, .string(language.displayName(in: display))))
            }
        } else {
            var keys = Set<String>()
            let others = Locale.LanguageCode.isoLanguageCodes.lazy.compactMap { try? LanguageCode(parsing: $0.identifier) }
            // The served ones first: their variants (`ca_valencia`) are named only there.
            for language in languages.get().listed + others {
                let key = Self.alpha2(language)
                guard !keys.contains(key), Self.hasName(language, in: display) else { continue }
                keys.insert(key)
                names.append((key, .string(language.displayName(in: display))))
            }
        }
        return EndpointResult(response: APyEnvelope.render(.object(names), request: request.http))
    }

    /// `code` as a locale ICU has language names in, nil when it has none.
    static func namesLocale(_ code: String) -> LanguageCode? {
        guard let language = try? LanguageCode(parsing: code) else { return nil }
        let available = Set(Locale.availableIdentifiers.map { $0.split(separator: "_").first.map(String.init) ?? $0 })
        return available.contains(language.language) ? language : nil
    }

    private static func hasName(_ language: LanguageCode, in display: LanguageCode) -> Bool {
        language.displayName(in: display) != language.bcp47
    }

    func stats(_ request: RoutedRequest, pipelines: (any PipelineReporting)?) async throws -> EndpointResult {
        let p = try request.parameters()
        let count = Int(p.last("requests") ?? "1000") ?? 1000
        let timings = stats.timings(last: count)
        let now = ContinuousClock.now
        let seconds = timings.reduce(0.0) { $0 + Self.seconds($1.end - $1.start) }
        let characters = timings.reduce(0) { $0 + $1.characters }
        let perSecond = seconds == 0 ? 0.0 : (Double(characters) / seconds * 100).rounded() / 100
        let running = await pipelines?.runningPipelines() ?? [:]
        let data: JSON = .object([
            ("uptime", .int(Int(Self.seconds(now - stats.started)))),
            ("useCount", .object(stats.useCount.map { ($0.0, .int($0.1)) })),
            ("runningPipes", .object(running.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { ($0.key, .int($0.value)) })),
            ("holdingPipes", .int(0)),
            ("periodStats", .object([
                ("charsPerSec", .double(perSecond)),
                ("totChars", .int(characters)),
                ("totTimeSpent", .double(seconds)),
                ("requests", .int(timings.count)),
                ("ageFirstRequest", .double(timings.first.map { Self.seconds(now - $0.start) } ?? 0)),
            ])),
        ])
        return EndpointResult(response: APyEnvelope.render(AjaxEnvelope.success(data), request: request.http))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func pipeDebug(_ request: RoutedRequest, pipelines: (any PipelineReporting)?) async throws -> EndpointResult {
        let p = try request.parameters()
        let text = try Self.required(p, "q")
        let (source, target) = try installedPair(try Self.required(p, "langpair"))
        guard let pipelines, let route = service.route(from: source, to: target), !route.isPivot else {
            throw Self.badRequest(Self.pairNotInstalled)
        }
        let stages = try await pipelines.debugPipeline(route.steps[0].pair, input: text)
        let data: JSON = .object([
            ("output", .array([.string(text)] + stages.map { .string($0.output) })),
            ("pipeline", .array(stages.map { $0.command.count == 1 ? .string($0.command[0]) : .array($0.command.map { .string($0) }) })),
        ])
        return EndpointResult(response: APyEnvelope.render(AjaxEnvelope.success(data), request: request.http))
    }
}
