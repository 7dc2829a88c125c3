/// The bodies of Google Cloud Translation v2 that the server writes and the SDK reads, defined
/// once: each type is `Decodable` (what `GoogleTranslationClient` reads) and has a ``json`` form
/// (what the server writes, members in Google's order). `WireTests` round-trips every one.
///
/// Shapes from Google's discovery document (`translate.v2.json`) and reference pages; see
/// `../shared/reference/api-wire-formats.md` §1.2 and §1.4.
public enum GoogleV2Wire {
    /// One translated text (`data.translations[i]`).
    public struct Translation: Codable, Sendable, Equatable {
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

        /// `{"translatedText", "detectedSourceLanguage"?, "model"?}`.
        public var json: JSON {
            .object([("translatedText", .string(translatedText))]
                    + (detectedSourceLanguage.map { [("detectedSourceLanguage", JSON.string($0))] } ?? [])
                    + (model.map { [("model", JSON.string($0))] } ?? []))
        }
    }

    /// The most likely language of one text (`data.detections[i][0]`).
    public struct Detection: Codable, Sendable, Equatable {
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

        /// `{"language", "isReliable", "confidence"}`, Google's order.
        public var json: JSON {
            .object([("language", .string(language))]
                    + (isReliable.map { [("isReliable", JSON.bool($0))] } ?? [])
                    + (confidence.map { [("confidence", JSON.double($0))] } ?? []))
        }
    }

    /// One supported language (`data.languages[i]`).
    public struct Language: Codable, Sendable, Equatable {
        /// The language code.
        public var language: String
        /// Its name in the requested display language, when one was requested.
        public var name: String?

        /// Makes a language.
        public init(language: String, name: String? = nil) {
            self.language = language
            self.name = name
        }

        /// `{"language", "name"?}`.
        public var json: JSON {
            .object([("language", .string(language))] + (name.map { [("name", JSON.string($0))] } ?? []))
        }
    }

    /// `{"data": {"translations": [...]}}`.
    public struct TranslateResponse: Codable, Sendable, Equatable {
        /// The payload.
        public struct Payload: Codable, Sendable, Equatable {
            /// One per `q`, in order.
            public var translations: [Translation]
        }
        /// The `data` wrapper every v2 answer has.
        public var data: Payload

        /// Wraps `translations`.
        public init(translations: [Translation]) { data = Payload(translations: translations) }

        /// The body as written.
        public var json: JSON {
            .object([("data", .object([("translations", .array(data.translations.map(\.json)))]))])
        }
    }

    /// `{"data": {"detections": [[...], ...]}}`: one inner list per `q`.
    public struct DetectResponse: Codable, Sendable, Equatable {
        /// The payload.
        public struct Payload: Codable, Sendable, Equatable {
            /// One list per `q`, most likely first.
            public var detections: [[Detection]]
        }
        /// The `data` wrapper.
        public var data: Payload

        /// Wraps `detections`.
        public init(detections: [[Detection]]) { data = Payload(detections: detections) }

        /// The body as written.
        public var json: JSON {
            .object([("data", .object([("detections", .array(data.detections.map { .array($0.map(\.json)) }))]))])
        }
    }

    /// `{"data": {"languages": [...]}}`.
    public struct LanguagesResponse: Codable, Sendable, Equatable {
        /// The payload.
        public struct Payload: Codable, Sendable, Equatable {
            /// The languages, sorted as Google sorts them.
            public var languages: [Language]
        }
        /// The `data` wrapper.
        public var data: Payload

        /// Wraps `languages`.
        public init(languages: [Language]) { data = Payload(languages: languages) }

        /// The body as written.
        public var json: JSON {
            .object([("data", .object([("languages", .array(data.languages.map(\.json)))]))])
        }
    }

    /// Google's error envelope: `{"error": {"code", "message", "errors": [{"message", "domain",
    /// "reason"}], "status"}}`; `google.api_core` maps `code` to its exception class.
    public struct ErrorResponse: Codable, Sendable, Equatable {
        /// One entry of `errors`.
        public struct Item: Codable, Sendable, Equatable {
            /// The entry's message.
            public var message: String?
            /// Google's error domain (`global`, `usageLimits`; Glossa's streaming uses `glossa`).
            public var domain: String?
            /// Google's reason (`invalid`, `forbidden`, `dailyLimitExceeded`); Glossa's streaming
            /// endpoint puts a ``StreamErrorReason`` here.
            public var reason: String?

            /// Makes an item.
            public init(message: String?, domain: String?, reason: String?) {
                self.message = message
                self.domain = domain
                self.reason = reason
            }
        }

        /// The body of `error`.
        public struct Body: Codable, Sendable, Equatable {
            /// The HTTP status.
            public var code: Int?
            /// A readable sentence.
            public var message: String?
            /// The detail entries (Google sends one).
            public var errors: [Item]?
            /// The gRPC-style status name (`INVALID_ARGUMENT`, `PERMISSION_DENIED`).
            public var status: String?
        }

        /// The error.
        public var error: Body

        /// An envelope with one detail entry repeating `message`.
        public init(code: Int, message: String, domain: String, reason: String, status: String) {
            error = Body(code: code, message: message,
                         errors: [Item(message: message, domain: domain, reason: reason)], status: status)
        }

        /// The body as written.
        public var json: JSON {
            var members: [(String, JSON)] = []
            if let code = error.code { members.append(("code", .int(code))) }
            if let message = error.message { members.append(("message", .string(message))) }
            if let errors = error.errors {
                members.append(("errors", .array(errors.map { item in
                    .object((item.message.map { [("message", JSON.string($0))] } ?? [])
                            + (item.domain.map { [("domain", JSON.string($0))] } ?? [])
                            + (item.reason.map { [("reason", JSON.string($0))] } ?? []))
                })))
            }
            if let status = error.status { members.append(("status", .string(status))) }
            return .object([("error", .object(members))])
        }
    }
}
