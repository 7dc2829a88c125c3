import TranslationCore

/// Translates documents (plain text, HTML, RTF, docx, pptx, xlsx, odt, odp, ods) through any
/// text translator, keeping the document's structure and every byte outside its text.
///
/// The document's paragraphs go to `translate` in batches, each as one text (HTML for
/// paragraphs cut by markup, see ``PieceCodec``); the document is then rebuilt around the
/// translations. It is a capability of the service, not of one protocol: APy's `/translateDoc`,
/// LibreTranslate's `/translate_file`, DeepL's `/v2/document` and `glossa translate --file` all
/// call it.
///
/// ```swift
/// let documents = DocumentTranslator()
/// let out = try await documents.translate(bytes) { texts, format in
///     try await service.translate(texts, from: en, to: es, options: .init(format: format)).map(\.translatedText)
/// }
/// ```
public struct DocumentTranslator: Sendable {
    /// Limits on what is accepted. Each field documents its default.
    public struct Limits: Sendable, Equatable {
        /// Largest document, in bytes as uploaded. Default: 32,000,000 (APy's `FILE_SIZE_LIMIT_BYTES`).
        public var maxBytes: Int = 32_000_000
        /// Most bytes the text parts of a zip-based document may unpack to (a zip bomb guard).
        /// Default: 256 MiB.
        public var maxUnpackedBytes: Int = 256 << 20
        /// Most texts sent to the translator in one call. Default: 256.
        public var maxTextsPerCall: Int = 256

        /// The defaults.
        public init() {}
    }

    /// A text translator: one output per input, in order, in the given format.
    public typealias TextTranslation = @Sendable (_ texts: [String], _ format: TextFormat) async throws -> [String]

    /// The limits in force.
    public let limits: Limits

    /// Makes a translator with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// What `bytes` are, or a ``DocumentError`` `.unsupportedType` naming their MIME type.
    public static func identify(_ bytes: [UInt8]) -> Result<DocumentFormat, DocumentError> {
        DocumentSniffer.identify(bytes)
    }

    /// The first `maxCharacters` or so of the document's text (see ``OpenedDocument/sampleText(maxCharacters:)``).
    /// - Throws: ``DocumentError``.
    public func sampleText(_ bytes: [UInt8], maxCharacters: Int = 2000) throws -> String {
        try open(bytes).sampleText(maxCharacters: maxCharacters)
    }

    /// The characters translating `bytes` would be billed (see ``OpenedDocument/billedCharacters``).
    /// - Throws: ``DocumentError`` for a document too large, of an unsupported type or damaged.
    public func billedCharacters(_ bytes: [UInt8]) throws -> Int {
        try open(bytes).billedCharacters
    }

    /// Translates the document in `bytes` (``open(_:)``, then ``translate(_:translate:progress:)``).
    /// - Throws: ``DocumentError`` for a document too large, of an unsupported type or damaged;
    ///   whatever `translate` throws.
    public func translate(_ bytes: [UInt8], translate: TextTranslation,
                          progress: (@Sendable (DocumentProgress) -> Void)? = nil) async throws -> TranslatedDocument {
        try await self.translate(try open(bytes), translate: translate, progress: progress)
    }

    /// Translates an opened document.
    /// - Parameters:
    ///   - translate: translates a batch of texts (the service, routed for the pair wanted).
    ///   - progress: called after each batch with the fraction of the document's characters done.
    /// - Throws: ``DocumentError`` when the document cannot be rebuilt; whatever `translate` throws.
    public func translate(_ document: OpenedDocument, translate: TextTranslation,
                          progress: (@Sendable (DocumentProgress) -> Void)? = nil) async throws -> TranslatedDocument {
        let segments = document.segments
        let translated = try await translateSegments(segments, translate: translate, progress: progress)
        return TranslatedDocument(bytes: try document.rebuild(translated), format: document.format,
                                  characters: document.billedCharacters, paragraphs: segments.count)
    }

    /// Reads `bytes` once, within the limits: its format, its segments and how to rebuild it. A
    /// server opens an upload once and bills, samples and translates what it opened.
    /// - Throws: ``DocumentError`` for a document too large, of an unsupported type or damaged.
    public func open(_ bytes: [UInt8]) throws(DocumentError) -> OpenedDocument {
        guard bytes.count <= limits.maxBytes else {
            throw DocumentError(.tooLarge, "The document is \(bytes.count) bytes, over the limit of \(limits.maxBytes).")
        }
        let format = try DocumentSniffer.identify(bytes).get()
        switch format {
        case .txt, .html:
            let document = PlainDocument(bytes: bytes, html: format == .html)
            return OpenedDocument(format: format, segments: document.segments, rebuild: { document.rebuilt(with: $0) })
        case .rtf:
            let document = RTFDocument(bytes: bytes)
            return OpenedDocument(format: format, segments: document.segments, rebuild: { document.rebuilt(with: $0) })
        case .docx, .pptx, .xlsx, .odt, .odp, .ods:
            let document = try OfficeDocument(bytes, format: format, maxUnpackedBytes: limits.maxUnpackedBytes)
            return OpenedDocument(format: format, segments: document.segments, rebuild: { try document.rebuilt(with: $0) })
        }
    }

    /// The translated pieces of every segment, in order; segments without a letter stay as they are.
    private func translateSegments(_ segments: [Segment], translate: TextTranslation,
                                   progress: (@Sendable (DocumentProgress) -> Void)?) async throws -> [[String]] {
        var result = segments.map(\.pieces)
        let todo = segments.indices.filter { segments[$0].hasText }
        let total = todo.reduce(0) { $0 + segments[$1].pieces.reduce(0) { $0 + $1.utf8.count } }
        var done = 0
        progress?(DocumentProgress(completed: 0, total: total))
        // Batches of one kind (one format per call), each at most maxTextsPerCall texts and
        // about 64 KB, so a large document shows progress and no call is unbounded.
        var start = 0
        while start < todo.count {
            let kind = segments[todo[start]].kind
            var end = start, bytes = 0
            while end < todo.count, end - start < max(1, limits.maxTextsPerCall), segments[todo[end]].kind == kind,
                  end == start || bytes < 64 * 1024 {
                bytes += segments[todo[end]].pieces.reduce(0) { $0 + $1.utf8.count }
                end += 1
            }
            let batch = Array(todo[start..<end])
            let texts = batch.map { kind == .pieces ? PieceCodec.encode(segments[$0]) : segments[$0].pieces[0] }
            let outputs = try await translate(texts, kind == .plainText ? .text : .html)
            guard outputs.count == texts.count else {
                throw DocumentError(.damaged, "The translator returned \(outputs.count) texts for \(texts.count).")
            }
            for (k, index) in batch.enumerated() {
                result[index] = kind == .pieces ? PieceCodec.decode(outputs[k], for: segments[index]) : [outputs[k]]
            }
            done += bytes
            progress?(DocumentProgress(completed: done, total: total))
            start = end
        }
        return result
    }
}

/// A translated document.
public struct TranslatedDocument: Sendable {
    /// The document's bytes, in its own format.
    public var bytes: [UInt8]
    /// Its format (the same as the input's).
    public var format: DocumentFormat
    /// Characters of text in the original that were translated, counted as they are billed
    /// (``OpenedDocument/billedCharacters``: code points of the paragraphs with a letter), so
    /// what a protocol reports for the document (DeepL's `billed_characters`) is its charge.
    public var characters: Int
    /// Paragraphs (segments) the document was read as.
    public var paragraphs: Int
}

/// How far a document's translation has come, in bytes of text.
public struct DocumentProgress: Sendable, Equatable {
    /// Bytes of text translated so far.
    public var completed: Int
    /// Bytes of text in the document.
    public var total: Int
    /// `completed / total` (1 for a document without text).
    public var fraction: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}
