import GlossaWire
import TranslationCore

/// APy's `/translateChain` (`translate_chain.py`): a text through a chain of pairs, given
/// (`eng|spa|cat`) or found (`eng|cat`, the shortest path over the installed pairs).
extension APyAPI {
    func translateChain(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let q = p.last("q")
        let langpairs = try Self.required(p, "langpairs")
        let chain = try self.chain(langpairs)
        guard let q, !q.isEmpty else {
            let body = AjaxEnvelope.success(.object([("translationChain", .array(chain.map { .string($0.apertiumCode) }))]))
            return EndpointResult(response: APyEnvelope.render(body, request: request.http))
        }
        let marks = Self.marksUnknown(p)
        let format = try Self.format(p)
        for (from, to) in zip(chain, chain.dropFirst()) { stats.noteUse("\(from.apertiumCode)-\(to.apertiumCode)") }
        let start = ContinuousClock.now
        var text = q
        for (index, (from, to)) in zip(chain, chain.dropFirst()).enumerated() {
            // Only the last hop marks: a `*word` fed to the next pair would be translated as a word.
            let last = index == chain.count - 2
            text = try await translateOrRefuse([text], from: from, to: to,
                                               options: TranslationOptions(format: format, markUnknownWords: marks && last))[0].translatedText
        }
        stats.noteTranslation(start: start, characters: request.billedCharacters)
        let body = AjaxEnvelope.success(.object([("translatedText", .string(text)),
                                                 ("translationChain", .array(chain.map { .string($0.apertiumCode) }))]))
        return EndpointResult(response: APyEnvelope.render(body, request: request.http), characters: request.billedCharacters)
    }

    /// The languages of the chain, or APy's 400s: fewer than two languages, a hop that is not
    /// installed, no path.
    private func chain(_ langpairs: String) throws -> [LanguageCode] {
        let parts = langpairs.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let needTwo = Self.badRequest("Need at least two languages, use e.g. eng|spa")
        guard parts.count >= 2 else { throw needTwo }
        let noPath = Self.badRequest("No path found for \(parts[0])-\(parts[1])")
        let codes = parts.map { try? LanguageCode(parsing: $0) }
        if parts.count == 2 {
            guard Self.alpha3Key(parts[0]) != Self.alpha3Key(parts[1]) else { throw needTwo }
            guard let from = codes[0], let to = codes[1], let route = service.route(from: from, to: to) else { throw noPath }
            return route.path
        }
        for (k, (a, b)) in zip(codes, codes.dropFirst()).enumerated() {
            guard let a, let b, let route = service.route(from: a, to: b), !route.isPivot else {
                throw Self.badRequest("Pair \(Self.alpha3Key(parts[k]))-\(Self.alpha3Key(parts[k + 1])) is not installed")
            }
        }
        return codes.map { $0! }
    }
}
