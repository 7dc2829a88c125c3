import TranslationCore

/// The outcome of one input of a streamed batch: its position in the batch and its result.
public struct IndexedTranslation: Sendable {
    /// The input's position in the batch (0-based).
    public var index: Int
    /// The translation, or the error that stopped this one input.
    public var result: Result<TranslationResult, TranslationError>

    /// Makes an outcome.
    public init(index: Int, result: Result<TranslationResult, TranslationError>) {
        self.index = index
        self.result = result
    }
}

extension TranslationService {
    /// Translates each text on its own and yields each outcome **as soon as it is ready**, not in
    /// input order; every input yields exactly one outcome (a result or its error).
    ///
    /// Used by streaming transports (`POST /glossa/v1/translate/stream`, TranslationKit's
    /// `translate(batch:)`): one slow text does not hold back the others.
    ///
    /// ```swift
    /// for await outcome in service.translateEach(["Hello", "World"], from: "en", to: "es") {
    ///     print(outcome.index, try outcome.result.get().translatedText)
    /// }
    /// ```
    ///
    /// Cancellation: when the consumer stops iterating (or its task is cancelled) no further text
    /// is started, and the texts in flight see task cancellation. At most `maxConcurrent` texts are
    /// in flight, so a cancelled batch of thousands leaves at most that many engine calls behind.
    public func translateEach(_ texts: [String], from source: LanguageCode?, to target: LanguageCode,
                              options: TranslationOptions = TranslationOptions(),
                              maxConcurrent: Int = 8) -> AsyncStream<IndexedTranslation> {
        let width = max(1, maxConcurrent)
        let (stream, continuation) = AsyncStream<IndexedTranslation>.makeStream()
        let producer = Task {
            await withTaskGroup(of: IndexedTranslation?.self) { group in
                var next = 0
                func startNext() {
                    let index = next
                    next += 1
                    group.addTask {
                        // Why check first: a cancelled batch must not start engine work.
                        if Task.isCancelled { return nil }
                        do {
                            let results = try await self.translate([texts[index]], from: source, to: target, options: options)
                            return IndexedTranslation(index: index, result: .success(results[0]))
                        } catch let error as TranslationError {
                            return IndexedTranslation(index: index, result: .failure(error))
                        } catch {
                            return IndexedTranslation(index: index, result: .failure(
                                TranslationError(.cancelled, "Translation of text \(index + 1) was cancelled.")))
                        }
                    }
                }
                while next < texts.count && next < width { startNext() }
                for await outcome in group {
                    if let outcome, !Task.isCancelled { continuation.yield(outcome) }
                    if Task.isCancelled { group.cancelAll(); continue }
                    if next < texts.count { startNext() }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in producer.cancel() }
        return stream
    }
}
