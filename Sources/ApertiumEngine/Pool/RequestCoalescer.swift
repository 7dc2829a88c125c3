import TranslationCore

/// Merges the texts of concurrent callers of one pair into shared pipeline requests.
///
/// Why: a pipeline serves one request at a time, and each request costs every stage a flush and
/// a wake-up whatever its size; under many small concurrent requests (an HTTP server's single
/// sentences) that per-request cost, not the translation, used the CPU. While `maxInFlight`
/// requests are running, later callers wait here; when one finishes, everything waiting goes
/// out as one request, and each caller gets exactly its
/// own results back, in order. A failure reaches every caller of that request (the pool has
/// already retried it once on a fresh pipeline).
actor RequestCoalescer {
    private let translator: ChunkedTranslator
    private let maxInFlight: Int
    /// Most texts merged into one request, so one request stays a bounded amount of work.
    private let maxTextsPerRequest = 4096
    private var inFlight = 0
    private var waiting: [(streams: [DeformattedText?], continuation: CheckedContinuation<[String], any Error>)] = []
    /// The identity of each entry of `waiting`, same order (for withdrawing a cancelled caller).
    private var waiterIDs: [Int] = []
    private var nextWaiter = 0

    init(translator: ChunkedTranslator, maxInFlight: Int) {
        self.translator = translator
        self.maxInFlight = max(1, maxInFlight)
    }

    /// One translation per stream, in order.
    func translate(_ streams: [DeformattedText?]) async throws -> [String] {
        if inFlight < maxInFlight {
            inFlight += 1
            defer { finished() }
            return try await translator.translate(streams)
        }
        // A caller cancelled while it waits is withdrawn (once merged, its work is shared).
        let id = nextWaiter
        nextWaiter += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled { continuation.resume(throwing: TranslationError(.cancelled, "The request was cancelled.")); return }
                waiting.append((streams, continuation))
                waiterIDs.append(id)
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
    }

    private func withdraw(_ id: Int) {
        guard let index = waiterIDs.firstIndex(of: id) else { return }
        waiterIDs.remove(at: index)
        waiting.remove(at: index).continuation.resume(throwing: TranslationError(.cancelled, "The request was cancelled."))
    }

    /// A request ended: send everything that waits, merged, on the freed slot.
    private func finished() {
        inFlight -= 1
        guard !waiting.isEmpty else { return }
        var batch: [(streams: [DeformattedText?], continuation: CheckedContinuation<[String], any Error>)] = []
        var count = 0
        while let next = waiting.first, batch.isEmpty || count + next.streams.count <= maxTextsPerRequest {
            batch.append(waiting.removeFirst())
            waiterIDs.removeFirst()
            count += next.streams.count
        }
        inFlight += 1
        Task { await self.run(batch) }
    }

    private func run(_ batch: [(streams: [DeformattedText?], continuation: CheckedContinuation<[String], any Error>)]) async {
        defer { finished() }
        do {
            let results = try await translator.translate(batch.flatMap(\.streams))
            var offset = 0
            for caller in batch {
                caller.continuation.resume(returning: Array(results[offset..<(offset + caller.streams.count)]))
                offset += caller.streams.count
            }
        } catch {
            batch.forEach { $0.continuation.resume(throwing: error) }
        }
    }
}
