import GlossaWire

extension GoogleTranslationClient {
    /// How the input is marked up (Google's `format`).
    public enum Format: String, Sendable, CaseIterable {
        /// Plain text.
        case text
        /// HTML: tags are kept, text between them is translated (Google's default; output of
        /// plain text is HTML-escaped in this mode).
        case html
    }

    /// One translated text (`data.translations[i]`): the same type the server writes.
    public typealias Translation = GoogleV2Wire.Translation

    /// The most likely language of one text (`data.detections[i][0]`).
    public typealias Detection = GoogleV2Wire.Detection

    /// One supported language (`data.languages[i]`).
    public typealias Language = GoogleV2Wire.Language
}

/// The translate request body (`TranslateTextRequest`).
struct GoogleTranslateBody: Encodable {
    var q: [String]
    var target: String
    var source: String?
    var format: String
    var model: String?
}

/// The detect request body (`DetectLanguageRequest`).
struct GoogleDetectBody: Encodable {
    var q: [String]
}
