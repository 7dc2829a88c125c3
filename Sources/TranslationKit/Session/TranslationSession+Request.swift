import Foundation

extension TranslationSession {
    /// One text to translate in a batch, as Apple's `TranslationSession.Request`.
    ///
    /// ```swift
    /// let requests = articles.map { TranslationSession.Request(sourceText: $0.text, clientIdentifier: $0.id.uuidString) }
    /// ```
    public struct Request: Sendable, Equatable, Hashable {
        /// The text to translate.
        public var sourceText: String
        /// Your identifier for this text, echoed on its ``Response`` so results can be matched
        /// back (``TranslationSession/translate(batch:)`` yields them out of order).
        public var clientIdentifier: String?

        /// Makes a request.
        public init(sourceText: String, clientIdentifier: String? = nil) {
            self.sourceText = sourceText
            self.clientIdentifier = clientIdentifier
        }
    }

    /// One translated text, as Apple's `TranslationSession.Response`.
    public struct Response: Sendable, Equatable, Hashable {
        /// The language translated from: the configured one, or the one detected for this text.
        public var sourceLanguage: Locale.Language
        /// The language translated into.
        public var targetLanguage: Locale.Language
        /// The text as given.
        public var sourceText: String
        /// The translation.
        public var targetText: String
        /// The request's ``Request/clientIdentifier``.
        public var clientIdentifier: String?

        /// Makes a response.
        public init(sourceLanguage: Locale.Language, targetLanguage: Locale.Language, sourceText: String,
                    targetText: String, clientIdentifier: String?) {
            self.sourceLanguage = sourceLanguage
            self.targetLanguage = targetLanguage
            self.sourceText = sourceText
            self.targetText = targetText
            self.clientIdentifier = clientIdentifier
        }
    }
}
