import GlossaWire
import HTTPServer
import TranslationCore

/// APy's `/translateRaw` (`translate_raw.py`): a pair's pipeline output as the last stage wrote it.
extension APyAPI {
    /// Reads its parameters in APy's order (`langpair`, `q`, then the pair), translates through
    /// the pair's own warm pipeline, never a pivot (APy runs one installed mode), and answers
    /// the stream itself as the body, labelled JSON as APy labels it (the handler assumes a
    /// pipeline that writes JSON) and without JSONP: APy writes the body as it is. Errors are
    /// APy's envelope. `deformat` is on unless it is exactly `False`; nothing is reformatted.
    func translateRaw(_ request: RoutedRequest, pipelines: (any PipelineReporting)?) async throws -> EndpointResult {
        let p = try request.parameters()
        let pairText = try Self.required(p, "langpair")
        let text = try Self.required(p, "q")
        let (source, target) = try pair(pairText)
        guard let source, let pipelines, let route = service.route(from: source, to: target), route.steps.count == 1 else {
            throw Self.badRequest(Self.pairNotInstalled)
        }
        // Counted as APy counts it: once the pair is known to be installed.
        stats.noteUse("\(source.apertiumCode)-\(target.apertiumCode)")
        try p.requireSingle("q", accepted: "one q per /translateRaw request")
        let deformat = (p.last("deformat") ?? "True") != "False"
        let start = ContinuousClock.now
        var raw: String
        do {
            // The marking pipeline, and APy's strip of `*` for markUnknown=no (``APyUnknownMarks``).
            raw = try await pipelines.translateRaw(text, pair: route.steps[0].pair, markUnknownWords: true, deformat: deformat)
            if !Self.marksUnknown(p) { raw = APyUnknownMarks.strip(raw) }
        } catch let error as TranslationError where [.unsupportedPair, .notInstalled].contains(error.kind) {
            // Not a pair of the pipelines' engine (another engine serves it), or found broken.
            throw Self.badRequest(Self.pairNotInstalled)
        }
        stats.noteTranslation(start: start, characters: request.billedCharacters)
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: Array(raw.utf8))
        return EndpointResult(response: response, characters: request.billedCharacters)
    }
}
