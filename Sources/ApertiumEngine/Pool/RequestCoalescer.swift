import TranslationCore

/// Merges the texts of concurrent callers of one pair into shared pipeline requests.
///
/// Why: a pipeline serves one request at a time, and each request costs every stage a flush and
/// a wake-up whatever its size; under many small concurrent requests (an HTTP server's single
/// sentences) that per-request cost, not the translation, used the CPU. While `maxInFlight`
/// requests are running, later callers wait here; when one finishes, everything waiting goes
/// out as one request, and each caller gets exactly its
/// own results back, in order. A failure reaches every caller of that request (the pool has
/// already retried it once on a fresh pipeline). A caller that is cancelled (its client hung up)
/// gets `.cancelled` at once, and a merged request whose callers have all gone is cancelled.
actor RequestCoalescer {
    private let translator: ChunkedTranslator
    private let maxInFlight: Int
    /// Most texts merged into one request, so one request stays a bounded amount of work.
    private let maxTextsPerRequest = 4096
    private var inFlight = 0
    /// Callers waiting for a free slot, in order of arrival.
    private var waiting: [(id: Int, streams: [DeformattedText?])] = []
    /// The continuation of every caller that waits or whose merged request runs, by caller.
    /// Invariant: a caller is resumed exactly once, by whoever removes it from here.
    private var continuations: [Int: CheckedContinuation<[String], any Error>] = [:]
    /// Each merged request's task and the callers still waiting for it: when the last of them
    /// withdraws, the task is cancelled, so work for nobody stops (its pipeline is stopped).
    /// (At most `maxInFlight` run at once, so finding a caller's is a short search.)
    private var merged: [Int: (task: Task<Void, Never>, callers: Set<Int>)] = [:]
    private var nextID = 0

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
        // A caller that is cancelled is withdrawn: from the queue, or from its merged request
        // (which stops once none of its callers is left).
        let id = nextID
        nextID += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled { continuation.resume(throwing: Self.cancelled); return }
                waiting.append((id, streams))
                continuations[id] = continuation
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
    }

    private static let cancelled = TranslationError(.cancelled, "The request was cancelled.")

    private func withdraw(_ id: Int) {
        guard let continuation = continuations.removeValue(forKey: id) else { return }
        continuation.resume(throwing: Self.cancelled)
        if let index = waiting.firstIndex(where: { $0.id == id }) {
            waiting.remove(at: index)
        } else if let batch = merged.first(where: { $0.value.callers.contains(id) })?.key {
            merged[batch]?.callers.remove(id)
            if merged[batch]?.callers.isEmpty == true { merged[batch]?.task.cancel() }
        }
    }

    /// A request ended: send everything that waits, merged, on the freed slot.
    private func finished() {
        inFlight -= 1
        guard !waiting.isEmpty else { return }
        var batch: [(id: Int, streams: [DeformattedText?])] = []
        var count = 0
        while let next = waiting.first, batch.isEmpty || count + next.streams.count <= maxTextsPerRequest {
            batch.append(waiting.removeFirst())
            count += next.streams.count
        }
        inFlight += 1
        let batchID = nextID
        nextID += 1
        let task = Task { await self.run(batch, as: batchID) }
        merged[batchID] = (task, Set(batch.map(\.id)))
    }

    private func run(_ batch: [(id: Int, streams: [DeformattedText?])], as batchID: Int) async {
        defer {
            merged[batchID] = nil
            finished()
        }
        let outcome: Result<[String], any Error>
        do { outcome = .success(try await translator.translate(batch.flatMap(\.streams))) } catch { outcome = .failure(error) }
        var offset = 0
        for caller in batch {
            let range = offset..<(offset + caller.streams.count)
            offset = range.upperBound
            // A caller that withdrew was answered already.
            guard let continuation = continuations.removeValue(forKey: caller.id) else { continue }
            continuation.resume(with: outcome.map { Array($0[range]) })
        }
    }
}
