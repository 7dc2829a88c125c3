import TranslationCore
import TranslationService

/// Builds the in-process service on first use and again after packages are installed, because
/// a `TranslationService` reads its engines' pairs once, when it is made.
actor LocalServiceHolder {
    private let make: @Sendable () async throws -> TranslationService
    private let canRebuild: Bool
    private var current: TranslationService?

    init(make: @escaping @Sendable () async throws -> TranslationService, canRebuild: Bool) {
        self.make = make
        self.canRebuild = canRebuild
    }

    func service() async throws -> TranslationService {
        if let current { return current }
        let made = try await make()
        current = made
        return made
    }

    /// Makes a fresh service; the old one is shut down (its in-flight calls may fail).
    func rebuild() async throws {
        guard canRebuild else { return }
        let old = current
        current = try await make()
        await old?.shutdown()
    }
}

/// The engines of this process, through a `TranslationService`.
struct LocalTransport: SessionTransport {
    let holder: LocalServiceHolder
    /// Texts translated at once by a streamed batch.
    let maxConcurrent: Int

    var location: InstallLocation { .thisMachine }

    func translateAll(_ texts: [String], from source: LanguageCode?, to target: LanguageCode, glossary: [GlossaryEntry]) async throws -> [Translated] {
        let service = try await service()
        do {
            return try await service.translate(texts, from: source, to: target, options: Self.options(source, target, glossary))
                .map { try Translated.outcome(text: $0.translatedText, source: $0.source, sourceText: $0.sourceText).get() }
        } catch let error as TranslationCore.TranslationError {
            throw TranslationError.from(error)
        }
    }

    /// The service's options for a glossary.
    static func options(_ source: LanguageCode?, _ target: LanguageCode, _ glossary: [GlossaryEntry]) -> TranslationOptions {
        guard let source, !glossary.isEmpty else { return TranslationOptions() }
        return TranslationOptions(glossary: Glossary(source: source, target: target, entries: glossary))
    }

    func stream(_ texts: [String], from source: LanguageCode?, to target: LanguageCode, glossary: [GlossaryEntry]) -> AsyncThrowingStream<StreamedItem, any Error> {
        let (stream, continuation) = AsyncThrowingStream<StreamedItem, any Error>.makeStream()
        let task = Task {
            do {
                let service = try await service()
                for await outcome in service.translateEach(texts, from: source, to: target, options: Self.options(source, target, glossary),
                                                           maxConcurrent: maxConcurrent) {
                    let item = outcome.result
                        .mapError { TranslationError.from($0) }
                        .flatMap { Translated.outcome(text: $0.translatedText, source: $0.source, sourceText: $0.sourceText) }
                    continuation.yield(StreamedItem(index: outcome.index, outcome: item))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        // Why: the consumer leaving must stop the batch, and translateEach stops when its own
        // iteration (inside this task) is cancelled.
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    func installedPairs() async throws -> [LanguagePair] {
        try await service().directions().map { LanguagePair(source: $0.source, target: $0.target) }
    }

    func isInstalled(from source: LanguageCode, to target: LanguageCode) async throws -> Bool {
        try await service().route(from: source, to: target) != nil
    }

    func installedSnapshot() async throws -> @Sendable (LanguageCode, LanguageCode) -> Bool {
        let service = try await service()
        return { service.route(from: $0, to: $1) != nil }
    }

    func detect(_ text: String) async throws -> LanguageCode? {
        try await service().detect([text]).first?.language ?? nil
    }

    func reload() async throws {
        do { try await holder.rebuild() } catch { throw TranslationError.internalError.with("Rebuilding the translation service failed: \(error)") }
    }

    private func service() async throws -> TranslationService {
        do {
            return try await holder.service()
        } catch let error as TranslationError {
            throw error
        } catch {
            throw TranslationError.internalError.with("Starting the translation engines failed: \(error)")
        }
    }
}
