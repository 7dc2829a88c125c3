extension GoogleTranslationClient {
    /// How the input is marked up (Google's `format`).
    public enum Format: String, Sendable, CaseIterable {
        /// Plain text.
        case text
        /// HTML: tags are kept, text between them is translated (Google's default; output of
        /// plain text is HTML-escaped in this mode).
        case html
    }

    /// One translated text (`data.translations[i]`).
    public struct Translation: Sendable, Equatable, Decodable {
        /// The translation.
        public var translatedText: String
        /// The detected source language, only when no source was given.
        public var detectedSourceLanguage: String?
        /// The model used, only when one was requested.
        public var model: String?

        /// Makes a translation.
        public init(translatedText: String, detectedSourceLanguage: String? = nil, model: String? = nil) {
            self.translatedText = translatedText
            self.detectedSourceLanguage = detectedSourceLanguage
            self.model = model
        }
    }

    /// The most likely language of one text (`data.detections[i][0]`).
    public struct Detection: Sendable, Equatable, Decodable {
        /// The language code (`en`, `zh-TW`); `und` when nothing could be detected.
        public var language: String
        /// Confidence in 0...1 (deprecated by Google but still sent).
        public var confidence: Double?
        /// Whether the detector trusts the result (deprecated by Google but still sent).
        public var isReliable: Bool?

        /// Makes a detection.
        public init(language: String, confidence: Double? = nil, isReliable: Bool? = nil) {
            self.language = language
            self.confidence = confidence
            self.isReliable = isReliable
        }
    }

    /// One supported language (`data.languages[i]`).
    public struct Language: Sendable, Equatable, Decodable {
        /// The language code.
        public var language: String
        /// Its name in the requested display language, when one was requested.
        public var name: String?

        /// Makes a language.
        public init(language: String, name: String? = nil) {
            self.language = language
            self.name = name
        }
    }
}

/// The `{"data": …}` wrapper of every v2 answer.
struct GoogleData<Payload: Decodable>: Decodable {
    var data: Payload
}

struct GoogleTranslations: Decodable { var translations: [GoogleTranslationClient.Translation] }
struct GoogleDetections: Decodable { var detections: [[GoogleTranslationClient.Detection]] }
struct GoogleLanguages: Decodable { var languages: [GoogleTranslationClient.Language] }

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
