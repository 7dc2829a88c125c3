extension TranslationSession {
    /// The answers to ``TranslationSession/translate(batch:)``: an `AsyncSequence` that yields
    /// each ``Response`` as soon as it is ready, **not** in request order; match them back by
    /// ``Response/clientIdentifier``.
    ///
    /// The work starts when iteration starts (each iteration translates the batch anew). Leaving
    /// the loop early, or cancelling the task, stops the texts not yet translated, on a server
    /// too. The first failure ends the sequence by throwing a ``TranslationError``.
    public struct BatchResponse: AsyncSequence, Sendable {
        /// Each answer.
        public typealias Element = Response

        let start: @Sendable () -> AsyncThrowingStream<Response, any Error>

        /// Starts the batch.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: start().makeAsyncIterator())
        }

        /// Iterates the answers.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Response, any Error>.AsyncIterator

            /// The next answer to be ready, or nil when all were delivered.
            public mutating func next() async throws -> Response? {
                try await base.next()
            }
        }
    }
}
