/// The body of `POST /glossa/v1/translate/stream`: a batch to translate, answered as
/// newline-delimited JSON, one ``StreamLine`` per input as soon as it is ready, then a final line.
///
/// ```json
/// {"q": ["Hello", "Good night"], "target": "es", "source": "en", "format": "text",
///  "clientIdentifiers": ["greeting", "farewell"]}
/// ```
public struct StreamTranslateRequest: Codable, Sendable, Equatable {
    /// The texts, in request order (the `index` of each answer line points into this array).
    /// A lone string is read as a batch of one, as Google v2 reads `q`.
    public var q: [String]
    /// The source language (any spelling Glossa accepts); absent or null: detected per text.
    public var source: String?
    /// The target language (any spelling Glossa accepts). Required.
    public var target: String
    /// `text` or `html`. Default: `text` (unlike Google v2, whose default is `html`).
    public var format: String?
    /// Optional opaque identifiers, one per text, echoed back on each answer line.
    public var clientIdentifiers: [String?]?
    /// Glossary entries to apply, each `[source term, target term]`; needs `source`.
    public var glossary: [[String]]?
    /// A stored glossary to apply (made through `/v2/glossaries` or `glossa glossary create`);
    /// needs `source`.
    public var glossaryId: String?

    /// Makes a request body.
    public init(q: [String], source: String? = nil, target: String, format: String? = nil,
                clientIdentifiers: [String?]? = nil, glossary: [[String]]? = nil, glossaryId: String? = nil) {
        self.glossary = glossary
        self.glossaryId = glossaryId
        self.q = q
        self.source = source
        self.target = target
        self.format = format
        self.clientIdentifiers = clientIdentifiers
    }

    private enum CodingKeys: String, CodingKey { case q, source, target, format, clientIdentifiers, glossary, glossaryId }

    /// Decodes a body; `q` may be a list of strings or one string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let one = try? c.decode(String.self, forKey: .q) {
            q = [one]
        } else {
            q = try c.decode([String].self, forKey: .q)
        }
        source = try c.decodeIfPresent(String.self, forKey: .source)
        target = try c.decode(String.self, forKey: .target)
        format = try c.decodeIfPresent(String.self, forKey: .format)
        clientIdentifiers = try c.decodeIfPresent([String?].self, forKey: .clientIdentifiers)
        glossary = try c.decodeIfPresent([[String]].self, forKey: .glossary)
        glossaryId = try c.decodeIfPresent(String.self, forKey: .glossaryId)
    }
}
