import GlossaWire
import TranslationCore

/// DeepL's `GET /v3/languages?resource=…`: per resource, every language with whether it is
/// usable as a source and as a target, and the features it has there (Weblate reads this before
/// it saves a DeepL connection). `GET /v3/languages/resources` lists the resources and what each
/// feature needs. Features are only those this server really has: tag handling, glossaries,
/// detection of the source; never formality. Resources it does not offer (voice, write, style
/// rules) list no language.
struct DeepLLanguagesV3: Sendable {
    let glossaries: DeepLGlossaryStore

    /// The resources DeepL names, with the features a language may have in each here.
    static let resources: [(name: String, features: [(String, source: Bool, target: Bool)])] = [
        ("translate_text", [("tag_handling", true, true), ("glossary", true, true), ("auto_detection", true, false)]),
        ("translate_document", [("glossary", true, true), ("auto_detection", true, false)]),
        ("glossary", []),
        ("voice", []),
        ("write", []),
        ("style_rules", []),
    ]

    func languages(_ request: RoutedRequest) throws -> EndpointResult {
        let p = try request.parameters()
        guard let resource = p.last("resource") ?? p.last("product") else { throw APIError.missingParameter("resource") }
        guard let features = Self.resources.first(where: { $0.name == resource })?.features else {
            throw APIError.translation(TranslationError(.invalidArgument, "Value for 'resource' not supported."))
        }
        var entries: [String: (name: String, source: Bool, target: Bool)] = [:]
        if resource == "glossary" {
            for (source, target) in glossaries.pairs() {
                entries[source, default: (Self.name(source), false, false)].source = true
                entries[target, default: (Self.name(target), false, false)].target = true
            }
        } else if resource.hasPrefix("translate_") {
            let catalog = DeepLCatalog(glossaries.languages.get())
            for (code, name) in catalog.list(targets: false) { entries[Self.v3Code(code), default: (name, false, false)].source = true }
            for (code, name) in catalog.list(targets: true) { entries[Self.v3Code(code), default: (name, false, false)].target = true }
        }
        let list: [JSON] = entries.keys.sorted().map { lang in
            let e = entries[lang]!
            let has = features.filter { ($0.source && e.source) || ($0.target && e.target) }
            return .object([("lang", .string(lang)), ("name", .string(e.name)),
                            ("usable_as_source", .bool(e.source)), ("usable_as_target", .bool(e.target)),
                            ("status", .string("stable")),
                            ("features", .object(has.map { ($0.0, JSON.object([])) }))])
        }
        return EndpointResult(response: DeepLAPI.render(.array(list)))
    }

    func resourceList(_ request: RoutedRequest) throws -> EndpointResult {
        _ = try request.parameters()
        let list: [JSON] = Self.resources.map { resource in
            .object([("name", .string(resource.name)), ("features", .array(resource.features.map { feature in
                .object([("name", .string(feature.0))]
                        + (feature.source ? [("needs_source_support", JSON.bool(true))] : [])
                        + (feature.target ? [("needs_target_support", JSON.bool(true))] : []))
            }))])
        }
        return EndpointResult(response: DeepLAPI.render(.array(list)))
    }

    /// v3's spelling of a v2 code: lower-case language, title-case script, upper-case region
    /// (`EN-GB` → `en-GB`, `ZH-HANS` → `zh-Hans`).
    static func v3Code(_ code: String) -> String {
        let parts = code.split(separator: "-")
        guard let first = parts.first else { return code.lowercased() }
        return ([first.lowercased()] + parts.dropFirst().map { $0.count == 4 ? $0.prefix(1).uppercased() + $0.dropFirst().lowercased() : $0.uppercased() })
            .joined(separator: "-")
    }

    static func name(_ code: String) -> String { LanguageCode(language: code).displayName() }
}
