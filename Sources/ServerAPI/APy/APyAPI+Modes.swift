import GlossaWire
import TranslationCore

/// APy's morphology endpoints over the engine's warm analysis modes: `/analyze`, `/generate`,
/// `/perWord`, `/calcCoverage` (APy's `analyze.py`, `generate.py`, `per_word.py`, `coverage.py`).
extension APyAPI {
    /// The mode of `kind` for `lang` (converted to APy's 639-3 spelling), or APy's 400.
    private func mode(_ kind: LanguageModeInfo.Kind, _ lang: String) async throws -> LanguageModeInfo {
        let key = Self.alpha3Key(lang)
        guard let mode = await modes?.languageModes().first(where: { $0.kind == kind && $0.key == key }) else {
            throw Self.badRequest(Self.modeNotInstalled)
        }
        return mode
    }

    /// APy's `to_alpha3_code`: `en` → `eng`, `en_US` → `eng_US`; anything else (`eng-spa`) as it is.
    static func alpha3Key(_ code: String) -> String {
        if code.contains("-") { return code }
        guard let parsed = try? LanguageCode(parsing: code) else { return code }
        return parsed.apertiumCode
    }

    private func run(_ mode: LanguageModeInfo, _ input: String, _ format: LanguageModeInput) async throws -> String {
        guard let modes else { throw Self.badRequest(Self.modeNotInstalled) }
        return try await modes.runLanguageMode(mode.name, input: input, as: format)
    }

    func analyze(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let text = try Self.required(p, "q")
        let mode = try await mode(.analyzer, try Self.required(p, "lang"))
        let units = APyStream.removingDeformatterDot(text, APyStream.unitsWithTrailing(try await run(mode, text, .text))) { $0.unit }
        let body: JSON = .array(units.map { unit in
            .array([.string(unit.unit), .string((APyStream.fields(unit.unit).first ?? "") + unit.after)])
        })
        return EndpointResult(response: APyEnvelope.render(body, request: request.http))
    }

    func generate(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let text = try Self.required(p, "q")
        let mode = try await mode(.generator, try Self.required(p, "lang"))
        var units = APyStream.writtenUnits(text)
        if units.isEmpty { units = ["^\(text)$"] }
        let output = try await run(mode, units.joined(separator: "[SEP]"), .stream)
        let generated = output.split(separator: "[SEP]", omittingEmptySubsequences: false).map(String.init)
        let body: JSON = .array(zip(generated, units).map { .array([.string($0), .string($1)]) })
        return EndpointResult(response: APyEnvelope.render(body, request: request.http))
    }

    func calcCoverage(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let lang = try Self.required(p, "lang")
        let text = try Self.required(p, "q")
        guard !text.isEmpty else { throw Self.badRequest("Missing q argument") }
        let mode = try await mode(.analyzer, lang)
        let units = APyStream.removingDeformatterDot(text, APyStream.unitsWithTrailing(try await run(mode, text, .text))) { $0.unit }
        let known = units.filter { unit in
            let analyses = APyStream.fields(unit.unit)
            guard analyses.count > 1, let first = analyses[1].first else { return true }
            return !"*&#".contains(first)
        }
        let coverage = units.isEmpty ? -1 : Double(known.count) / Double(units.count)
        return EndpointResult(response: APyEnvelope.render(.array([.double(coverage)]), request: request.http))
    }

    func perWord(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let lang = Self.alpha3Key(try Self.required(p, "lang"))
        let wanted = try Self.required(p, "modes").split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let query = try Self.required(p, "q")
        let known: Set<String> = ["morph", "biltrans", "tagger", "disambig", "translate"]
        guard Set(wanted).isSubset(of: known) else { throw Self.badRequest("Invalid mode argument") }
        let noOutput = Self.badRequest("No output")
        let all = await modes?.languageModes() ?? []
        func find(_ kind: LanguageModeInfo.Kind) -> LanguageModeInfo? { all.first { $0.kind == kind && $0.key == lang } }
        var outputs: [String: [JSON]] = [:]
        var morphUnits: [String] = [], taggerUnits: [String] = []
        if wanted.contains("morph") || wanted.contains("biltrans") {
            guard let analyzer = find(.analyzer) else { throw noOutput }
            // The deformatter's closing `.` stays, as in APy: its per_word.py passes single units
            // to remove_dot_from_deformat, whose check then reads one character and never
            // matches, and APy's own test_per_word_nno expects the `.` ({"input": "."}).
            morphUnits = APyStream.units(try await run(analyzer, query, .text))
            outputs["morph"] = morphUnits.map { .array(APyStream.fields($0).dropFirst().map { .string($0) }) }
        }
        if wanted.contains("tagger") || wanted.contains("disambig") || wanted.contains("translate") {
            guard let tagger = find(.tagger) else { throw noOutput }
            taggerUnits = APyStream.units(try await run(tagger, query, .text))
            let tagged: [JSON] = taggerUnits.map { unit in
                unit.contains("/") ? .array(APyStream.fields(unit).dropFirst().map { .string($0) }) : .string(unit)
            }
            outputs["tagger"] = tagged
            // APy accepts `disambig` but never fills it (a KeyError, answered 500): it is the tagger's choice.
            outputs["disambig"] = tagged
        }
        if wanted.contains("biltrans") {
            guard !morphUnits.isEmpty, let dictionary = find(.bilingual) else { throw noOutput }
            outputs["biltrans"] = try await lookUp(morphUnits, in: dictionary)
        }
        if wanted.contains("translate") {
            guard !taggerUnits.isEmpty, let dictionary = find(.bilingual) else { throw noOutput }
            outputs["translate"] = try await lookUp(taggerUnits, in: dictionary)
        }
        let units = taggerUnits.isEmpty ? morphUnits : taggerUnits
        var answer: [JSON] = []
        for (index, unit) in units.enumerated() {
            var fields: [(String, JSON)] = [("input", .string(APyStream.stripTags(APyStream.fields(unit).first ?? "")))]
            for mode in wanted where !fields.contains(where: { $0.0 == mode }) {
                guard let values = outputs[mode], index < values.count else { throw noOutput }
                fields.append((mode, values[index]))
            }
            answer.append(.object(fields))
        }
        if let pos = p.last("pos"), let position = Int(pos) {
            var current = 0
            for (unit, fields) in zip(answer, units) {
                current += APyStream.stripTags(APyStream.fields(fields).first ?? "").split(separator: " ", omittingEmptySubsequences: false).count
                if position - 1 < current { return EndpointResult(response: APyEnvelope.render(unit, request: request.http)) }
            }
            throw Self.badRequest("No output")
        }
        return EndpointResult(response: APyEnvelope.render(.array(answer), request: request.http))
    }

    /// Each unit's analyses looked up in the pair's bilingual dictionary: per unit, the
    /// translations of each of its analyses (APy's `bilingual_translate`, but one warm lookup
    /// for the whole request instead of a process per word).
    private func lookUp(_ units: [String], in dictionary: LanguageModeInfo) async throws -> [JSON] {
        let forms = units.map { unit -> [String] in
            let split = APyStream.fields(unit)
            return split.count > 1 ? Array(split.dropFirst()) : split
        }
        let request = forms.map { $0.map { "^\($0)$" }.joined() }.joined(separator: "[SEP]")
        let output = try await run(dictionary, request, .stream)
        let answers = output.split(separator: "[SEP]", omittingEmptySubsequences: false).map(String.init)
        return forms.indices.map { i in
            let translations = i < answers.count ? APyStream.units(answers[i]) : []
            return .array(translations.map { .string(APyStream.fields($0).dropFirst().joined(separator: "/")) })
        }
    }
}
