import Foundation
import GlossaWire
import HTTPServer
import TranslationCore

/// A validated `POST /glossa/v1/translate/stream` body.
struct StreamingRequest: Sendable {
    var texts: [String]
    var source: LanguageCode?
    var target: LanguageCode
    var format: TextFormat
    var clientIdentifiers: [String?]?
    /// Entries given with the request (checked as DeepL checks entries).
    var glossaryEntries: [GlossaryEntry]?
    /// A stored glossary to look up.
    var glossaryID: String?

    /// Decodes and checks the JSON body.
    /// - Throws: ``APIError`` naming what is wrong (bad JSON, missing `q` or `target`, too many
    ///   texts, a `clientIdentifiers` list of another length, an unknown language or format).
    static func parse(_ request: HTTPRequest, maxTexts: Int) throws -> StreamingRequest {
        if case .tooLarge(let limit) = request.bodyStatus { throw APIError.payloadTooLarge(limit: limit) }
        let body: StreamTranslateRequest
        do {
            body = try JSONDecoder().decode(StreamTranslateRequest.self, from: Data(request.body))
        } catch DecodingError.keyNotFound(let key, _) {
            throw APIError.missingParameter(key.stringValue)
        } catch DecodingError.valueNotFound(_, let context) {
            throw APIError.missingParameter(context.codingPath.map(\.stringValue).joined(separator: "."))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            // JSON, with a field of the wrong type: say which field, and what it takes.
            let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            throw APIError.malformedBody(.badValue, "\(field) has the wrong type: q is a string or a list of strings; target, source and format are strings; clientIdentifiers is a list of strings or nulls.")
        } catch {
            throw APIError.malformedBody(.invalidJSON, "The body must be JSON: {\"q\": [\"text\", ...], \"target\": \"es\", \"source\"?: \"en\", \"format\"?: \"text\"|\"html\", \"clientIdentifiers\"?: [...]}.")
        }
        guard !body.q.isEmpty else { throw APIError.missingParameter("q") }
        guard body.q.count <= maxTexts else { throw APIError.tooManySegments(given: body.q.count, limit: maxTexts) }
        if let ids = body.clientIdentifiers, ids.count != body.q.count {
            throw APIError.malformedBody(.badValue, "clientIdentifiers has \(ids.count) entries for \(body.q.count) texts; give one per text or none.")
        }
        guard !body.target.isEmpty else { throw APIError.missingParameter("target") }
        let source = try body.source.flatMap { $0.isEmpty ? nil : $0 }.map { try LanguageCode(parsing: $0) }
        if (body.glossary != nil || body.glossaryId != nil) && source == nil {
            throw APIError.translation(TranslationError(.invalidArgument, "A glossary needs the source language: give source."))
        }
        let entries = try body.glossary.map { pairs -> [GlossaryEntry] in
            for (i, pair) in pairs.enumerated() where pair.count != 2 || pair.contains(where: { $0.contains("\t") || $0.contains("\n") }) {
                throw APIError.malformedBody(.badValue, "glossary[\(i)] must be [source term, target term], without tabs or line breaks.")
            }
            return try GlossaryEntries.parse(pairs.map { $0.joined(separator: "\t") }.joined(separator: "\n"), format: .tsv)
        }
        return StreamingRequest(texts: body.q, source: source, target: try LanguageCode(parsing: body.target),
                                format: try body.format.map { try TextFormat(parsing: $0) } ?? .text,
                                clientIdentifiers: body.clientIdentifiers, glossaryEntries: entries, glossaryID: body.glossaryId)
    }
}

extension StreamingRequest {
    /// The code points of every text in the body (0 when the body does not decode: the handler
    /// then refuses it, unbilled).
    static let billedCharacters: @Sendable (RoutedRequest) -> Int = { request in
        guard let body = try? JSONDecoder().decode(StreamTranslateRequest.self, from: Data(request.http.body)) else { return 0 }
        return body.q.reduce(0) { $0 + Billing.codePoints($1) }
    }
}
