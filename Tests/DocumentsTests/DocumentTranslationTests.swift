import Synchronization
import Testing
import TranslationCore
import Documents

/// A translation service for the document workflow: detects the language a table gives for a
/// text's first word, translates by upper-casing (HTML tags kept), and records every call.
final class TableService: TextTranslating {
    private let languages: [String: LanguageCode]
    private let log = Mutex<(detected: [String], translated: [(texts: [String], source: LanguageCode, target: LanguageCode, options: TranslationOptions)])>(([], []))
    private let failure: TranslationError?

    init(_ languages: [String: LanguageCode] = [:], failing failure: TranslationError? = nil) {
        self.languages = languages
        self.failure = failure
    }

    /// The texts detection was asked about, in order.
    var detected: [String] { log.withLock { $0.detected } }
    /// Every translation call, in order.
    var translated: [(texts: [String], source: LanguageCode, target: LanguageCode, options: TranslationOptions)] { log.withLock { $0.translated } }

    func language(of text: String) async -> LanguageCode? {
        log.withLock { $0.detected.append(text) }
        return text.split(separator: " ").first.flatMap { languages[String($0)] }
    }

    func translateTexts(_ texts: [String], from source: LanguageCode, to target: LanguageCode,
                        options: TranslationOptions) async throws -> [String] {
        log.withLock { $0.translated.append((texts, source, target, options)) }
        if let failure { throw failure }
        return texts.map { FakeTranslator.upper($0, html: options.format == .html) }
    }
}

@Suite("DocumentTranslation: a document through the service, as the server and the CLI translate it")
struct DocumentTranslationTests {
    @Test("a given source is used as it is, without detection")
    func givenSource() async throws {
        let service = TableService(["Hola": "es"])
        let workflow = DocumentTranslation(service: service)
        let text = bytes("Hello there.\n\nSecond line.\n")
        #expect(try await workflow.source(of: text, given: "en", unidentified: "unused") == "en")
        #expect(service.detected.isEmpty)
    }

    @Test("without a source, the language is detected once, from the document's text")
    func detectedOnce() async throws {
        let service = TableService(["Hola": "es"])
        let workflow = DocumentTranslation(service: service)
        let text = "Hola mundo.\n\nAdi\u{F3}s.\n"
        #expect(try await workflow.source(of: bytes(text), given: nil, unidentified: "unused") == "es")
        // One detection, of the document's paragraphs together.
        #expect(service.detected == ["Hola mundo.\nAdi\u{F3}s.\n"])
    }

    @Test("text with no language is refused with the caller's message")
    func unidentified() async throws {
        let workflow = DocumentTranslation(service: TableService())
        let error = await #expect(throws: TranslationError.self) {
            try await workflow.source(of: bytes("12345\n"), given: nil, unidentified: "Could not identify it; give --from.")
        }
        #expect(error?.kind == .unableToIdentifyLanguage && error?.message == "Could not identify it; give --from.")
    }

    @Test("an unreadable document fails as a DocumentError, before any detection")
    func unreadable() async throws {
        let service = TableService(["Hola": "es"])
        let error = await #expect(throws: DocumentError.self) {
            try await DocumentTranslation(service: service).source(of: bytes("%PDF-1.4 ..."), given: nil, unidentified: "unused")
        }
        #expect(error?.code == .unsupportedType && service.detected.isEmpty)
    }

    @Test("texts go to the service with the pair, the caller's options and each part's format")
    func translates() async throws {
        let service = TableService()
        let glossary = Glossary(source: "en", target: "es", entries: [])
        let options = TranslationOptions(format: .html, markUnknownWords: true, glossary: glossary)
        let done = Mutex<[DocumentProgress]>([])
        let out = try await DocumentTranslation(service: service).translate(bytes("One.\n\nTwo.\n"), from: "en", to: "es", options: options,
                                                                           progress: { p in done.withLock { $0.append(p) } })
        #expect(String(decoding: out.bytes, as: UTF8.self) == "ONE.\n\nTWO.\n")
        #expect(out.format == .txt && out.paragraphs > 0)
        let calls = service.translated
        #expect(calls.flatMap(\.texts) == ["One.", "Two."])
        // The caller's options, except the format: plain text here, whatever was given.
        #expect(calls.allSatisfy { $0.source == "en" && $0.target == "es" && $0.options.format == .text
            && $0.options.markUnknownWords && $0.options.glossary == glossary })
        #expect(done.withLock { $0.last?.fraction } == 1)
    }

    @Test("the service's refusal and the document's limits come back unchanged")
    func errors() async throws {
        let refusal = TranslationError(.unsupportedPair, "No translation from English (en) to Spanish (es) is installed.")
        let failing = DocumentTranslation(service: TableService(failing: refusal))
        let error = await #expect(throws: TranslationError.self) { try await failing.translate(bytes("One.\n"), from: "en", to: "es") }
        #expect(error == refusal)
        var limits = DocumentTranslator.Limits()
        limits.maxBytes = 4
        let small = DocumentTranslation(service: TableService(), translator: DocumentTranslator(limits: limits))
        let tooLarge = await #expect(throws: DocumentError.self) { try await small.translate(bytes("One two.\n"), from: "en", to: "es") }
        #expect(tooLarge?.code == .tooLarge)
    }
}
