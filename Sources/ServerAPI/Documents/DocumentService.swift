import Synchronization
import Documents
import TranslationCore
import TranslationService

/// Documents as a capability of the server: every dialect's document endpoint (APy's
/// `/translateDoc`, LibreTranslate's `/translate_file`, DeepL's `/v2/document`) translates
/// through this one, and each renders the result and the errors in its own way.
struct DocumentService: Sendable {
    /// The workflow the CLI shares: detection of the document's language, its texts through
    /// the service.
    let workflow: DocumentTranslation
    /// Documents translated at once; more wait (APy's `--max-doc-pipes`, 3 by default).
    let slots: AsyncLimiter

    init(service: TranslationService, limits: DocumentTranslator.Limits, concurrent: Int) {
        self.workflow = DocumentTranslation(service: service, translator: DocumentTranslator(limits: limits))
        self.slots = AsyncLimiter(limit: concurrent)
    }

    /// Reads documents within the server's limits.
    var translator: DocumentTranslator { workflow.translator }

    /// What a document endpoint bills: the code points of the uploaded document's text.
    var billing: @Sendable (RoutedRequest) -> Int { Billing.document(field: "file", translator: translator) }

    /// The largest upload accepted, in bytes.
    var maxBytes: Int { translator.limits.maxBytes }

    /// The largest request body of an upload endpoint: the document and a form's other fields
    /// (1 MiB of headroom), so that an allowed document is never refused for its envelope.
    var uploadLimit: Int { Self.uploadLimit(documentBytes: maxBytes) }
    /// The same where the document travels inside JSON in base64 (Google v3): 4 bytes for 3.
    var base64UploadLimit: Int { Self.base64UploadLimit(documentBytes: maxBytes) }

    static func uploadLimit(documentBytes: Int) -> Int { documentBytes + (1 << 20) }
    static func base64UploadLimit(documentBytes: Int) -> Int { (documentBytes + 2) / 3 * 4 + (1 << 20) }

    /// The document `bytes` of `request`, opened once for the request (its billing may have
    /// opened it already): what the endpoint then checks and translates.
    /// - Throws: ``DocumentError`` for a document too large, of an unsupported type or damaged.
    func open(_ bytes: [UInt8], for request: RoutedRequest) throws(DocumentError) -> OpenedDocument {
        let translator = self.translator
        return try request.facts.document { () throws(DocumentError) in try translator.open(bytes) }
    }

    /// Translates `document` from `source` (nil: detected once from the document's text) into `target`.
    /// - Throws: ``DocumentError``, ``TranslationError``.
    func translate(_ document: OpenedDocument, from source: LanguageCode?, to target: LanguageCode, markUnknownWords: Bool = false,
                   glossary: Glossary? = nil, refusingSameLanguage: Bool = false, progress: (@Sendable (DocumentProgress) -> Void)? = nil) async throws -> (document: TranslatedDocument, source: LanguageCode) {
        let resolved = try await workflow.source(of: document, given: source,
                                                 unidentified: "Could not identify the document's language; give the source language.")
        // DeepL fails a document whose (detected) language is the target, rather than hand the
        // file back unchanged as "done".
        if refusingSameLanguage, resolved.language == target.language {
            throw TranslationError(.invalidArgument, "Source and target language are equal.")
        }
        let workflow = self.workflow
        let options = TranslationOptions(markUnknownWords: markUnknownWords, glossary: glossary)
        let document = try await slots.run {
            try await workflow.translate(document, from: resolved, to: target, options: options, progress: progress)
        }
        return (document, resolved)
    }
}

/// At most `limit` bodies run at once; others wait in order (never blocking a thread).
final class AsyncLimiter: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(limit: Int) { state = Mutex((max(1, limit), [])) }

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool in
                if s.free > 0 { s.free -= 1; return true }
                s.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiting.isEmpty { s.free += 1; return nil }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}
