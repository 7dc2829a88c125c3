/// The body of `POST /glossa/v1/translate/stream`: a batch to translate, answered as
/// newline-delimited JSON, one ``StreamLine`` per input as soon as it is ready, then a final line.
///
/// ```json
/// {"q": ["Hello", "Good night"], "target": "es", "source": "en", "format": "text",
///  "clientIdentifiers": ["greeting", "farewell"]}
/// ```
public struct StreamTranslateRequest: Codable, Sendable, Equatable {
    /// The texts, in request order (the `index` of each answer line points into this array).
    public var q: [String]
    /// The source language (any spelling Glossa accepts); absent or null: detected per text.
    public var source: String?
    /// The target language (any spelling Glossa accepts). Required.
    public var target: String
    /// `text` or `html`. Default: `text` (unlike Google v2, whose default is `html`).
    public var format: String?
    /// Optional opaque identifiers, one per text, echoed back on each answer line.
    public var clientIdentifiers: [String?]?

    /// Makes a request body.
    public init(q: [String], source: String? = nil, target: String, format: String? = nil,
                clientIdentifiers: [String?]? = nil) {
        self.q = q
        self.source = source
        self.target = target
        self.format = format
        self.clientIdentifiers = clientIdentifiers
    }
}
