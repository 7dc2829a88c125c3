import TranslationCore

/// One document translated through a translation service: the workflow that the server's
/// document endpoints (through `DocumentService`) and `glossa translate --file` share.
///
/// Two steps, so that a transport can put its own rules between them (the server waits for a
/// free document slot; DeepL refuses a document already in the target language):
/// ```swift
/// let workflow = DocumentTranslation(service: service)
/// let source = try await workflow.source(of: bytes, given: nil, unidentified: "give the source language")
/// let document = try await workflow.translate(bytes, from: source, to: "es")
/// ```
public struct DocumentTranslation: Sendable {
    /// Detects and translates the document's texts (the `TranslationService`).
    public let service: any TextTranslating
    /// Reads and rebuilds the document, within its limits.
    public let translator: DocumentTranslator

    /// A workflow over `service`, reading documents with `translator` (default limits unless given).
    public init(service: any TextTranslating, translator: DocumentTranslator = DocumentTranslator()) {
        self.service = service
        self.translator = translator
    }

    /// The language of the document in `bytes`: `source` when given, otherwise detected once from
    /// a sample of the document's text (``DocumentTranslator/sampleText(_:maxCharacters:)``), so
    /// that the whole document is translated from one language.
    /// - Throws: ``DocumentError`` when the document cannot be read; ``TranslationError``
    ///   `.unableToIdentifyLanguage` with the message `unidentified` when its text has no language.
    public func source(of bytes: [UInt8], given source: LanguageCode?, unidentified: String) async throws -> LanguageCode {
        if let source { return source }
        return try await self.source(of: try translator.open(bytes), given: nil, unidentified: unidentified)
    }

    /// The language of an opened document (as ``source(of:given:unidentified:)-([UInt8],_,_)``).
    public func source(of document: OpenedDocument, given source: LanguageCode?, unidentified: String) async throws -> LanguageCode {
        if let source { return source }
        guard let language = await service.language(of: document.sampleText()) else {
            throw TranslationError(.unableToIdentifyLanguage, unidentified)
        }
        return language
    }

    /// Translates the document in `bytes` from `source` into `target`: each batch of its texts
    /// through the service with `options`, whose format is, per batch, the markup the document's
    /// text is written in (plain text or HTML).
    /// - Parameter progress: called after each batch with the share of the document done.
    /// - Throws: ``DocumentError`` for a document too large, of an unsupported type or damaged;
    ///   ``TranslationError`` from the service.
    public func translate(_ bytes: [UInt8], from source: LanguageCode, to target: LanguageCode,
                          options: TranslationOptions = TranslationOptions(),
                          progress: (@Sendable (DocumentProgress) -> Void)? = nil) async throws -> TranslatedDocument {
        try await translate(try translator.open(bytes), from: source, to: target, options: options, progress: progress)
    }

    /// Translates an opened document (as ``translate(_:from:to:options:progress:)-([UInt8],_,_,_,_)``).
    public func translate(_ document: OpenedDocument, from source: LanguageCode, to target: LanguageCode,
                          options: TranslationOptions = TranslationOptions(),
                          progress: (@Sendable (DocumentProgress) -> Void)? = nil) async throws -> TranslatedDocument {
        let service = self.service
        return try await translator.translate(document, translate: { texts, format in
            var options = options
            options.format = format
            return try await service.translateTexts(texts, from: source, to: target, options: options)
        }, progress: progress)
    }
}
