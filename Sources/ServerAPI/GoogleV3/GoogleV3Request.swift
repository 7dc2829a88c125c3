import GlossaWire
import TranslationCore

/// A Google v3 request body as the REST transport sends it: proto3 JSON, lowerCamelCase field
/// names, an object. Read with v3's rules: unknown fields are refused (proto3 JSON parsing
/// refuses them too, so a misspelt field is never silently ignored), `null` is absent.
struct GoogleV3Body {
    let fields: [(String, JSON)]

    /// - Throws: ``APIError`` for a body that is not a JSON object, or that has a field outside `known`.
    init(_ bytes: [UInt8], known: Set<String>) throws(APIError) {
        guard !bytes.isEmpty else { throw APIError.malformedBody(.notAnObject, "The request body must be a JSON object.") }
        let json: JSON
        do { json = try JSON.parse(bytes) } catch {
            throw APIError.malformedBody(.invalidJSON, "Invalid JSON payload received. \(error)")
        }
        guard case .object(let members) = json else {
            throw APIError.malformedBody(.notAnObject, "Invalid JSON payload received. The body must be a JSON object.")
        }
        try self.init(members: members, known: known)
    }

    /// An object's members, read with the same rules (a nested message such as `documentInputConfig`).
    init(members: [(String, JSON)], known: Set<String>) throws(APIError) {
        for (name, value) in members where !known.contains(name) && value != .null {
            throw APIError.malformedBody(.badValue, "Invalid JSON payload received. Unknown name \"\(name)\": Cannot find field.")
        }
        fields = members.filter { $0.1 != .null }
    }

    subscript(name: String) -> JSON? { fields.last { $0.0 == name }?.1 }

    /// A string field; nil when absent or empty (proto3's default).
    func string(_ name: String) throws(APIError) -> String? {
        guard let value = self[name] else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(name, "a string") }
        return text.isEmpty ? nil : text
    }

    /// A list of strings; empty when absent.
    func strings(_ name: String) throws(APIError) -> [String] {
        guard let value = self[name] else { return [] }
        guard case .array(let items) = value else { throw Self.wrongType(name, "a list of strings") }
        return try items.map { item throws(APIError) in
            guard case .string(let text) = item else { throw Self.wrongType(name, "a list of strings") }
            return text
        }
    }

    /// An object field, as a body of its own; nil when absent.
    func object(_ name: String, known: Set<String>) throws(APIError) -> GoogleV3Body? {
        guard let value = self[name] else { return nil }
        guard case .object(let members) = value else { throw Self.wrongType(name, "an object") }
        return try GoogleV3Body(members: members, known: known)
    }

    static func wrongType(_ name: String, _ expected: String) -> APIError {
        APIError.malformedBody(.badValue, "Invalid value at '\(name)': expected \(expected).")
    }
}

/// The parts of v3 requests every method reads alike.
enum GoogleV3Fields {
    /// `mimeType`: `text/html` (v3's default, as v2's `format`) or `text/plain`.
    static func format(_ body: GoogleV3Body) throws(APIError) -> TextFormat {
        switch try body.string("mimeType")?.lowercased() {
        case nil, "text/html": return .html
        case "text/plain": return .text
        case let other?: throw APIError.translation(TranslationError(.invalidArgument, "Unsupported mime type: \(other). Use text/plain or text/html."))
        }
    }

    /// A language code field, read as Google spells codes; nil when absent.
    static func language(_ body: GoogleV3Body, _ name: String) throws(APIError) -> LanguageCode? {
        guard let text = try body.string(name) else { return nil }
        do { return try LanguageCode(parsing: text) } catch {
            let which = name == "sourceLanguageCode" ? "Source" : "Target"
            throw APIError.translation(TranslationError(.invalidLanguage, "\(which) language is invalid: \(text)."))
        }
    }

    /// `model`: Google's general NMT model in any of its spellings (`general/nmt`, or the full
    /// `projects/{p}/locations/{l}/models/general/nmt`), echoed back by its full name as Google
    /// does; nil when none was asked for. Any other model (AutoML, translation-llm) is refused,
    /// not silently replaced.
    static func model(_ body: GoogleV3Body, project: String, location: String) throws(APIError) -> String? {
        guard let model = try body.string("model") else { return nil }
        guard model == "general/nmt" || model == "general/base" || model.hasSuffix("/models/general/nmt") || model.hasSuffix("/models/general/base") else {
            throw APIError.translation(TranslationError(.invalidArgument, "Model \(model) is not supported here: this server offers general/nmt."))
        }
        return "projects/\(project)/locations/\(location)/models/general/nmt"
    }
}
