import Foundation
import NeuralCompute
import TranslationCore

/// The neural engine's inference threads and the queue in front of them: sentences of
/// concurrent requests are grouped into batches and translated together.
///
/// Modelled on bergamot-translator's `BatchingPool` (src/translator/batching_pool.cpp): every
/// request's sentences enter one queue; a worker forms a batch of sentences of similar length
/// (so padding wastes little) under a token budget (`sentences × longest ≤ maxBatchTokens`,
/// padded tokens, as bergamot counts them), and each sentence's output goes back to its own
/// request, in that request's order. Unlike bergamot, the oldest waiting sentence is always in
/// the next batch (no starvation), and while another worker is busy, a worker waits up to
/// `maxWait` for a batch to fill. With every worker idle nothing waits: a lone request starts at
/// once, and under load sentences gather in the queue while the workers translate.
///
/// Why here and not in TranslationService: a batch can only hold sentences for the same model
/// with the same decoding options, measured in that model's tokens: only the neural engine knows
/// those. The service stays engine-agnostic; Apertium has its own pipelines.
///
/// Exactness: every row of a batch is computed independently of the others (padding is masked
/// and the kernels' summation order does not depend on the batch), so a sentence translates to
/// the same tokens alone or in any batch; BatchingTests and tests/test_neural_batching.py check it.
final class BatchingPool: @unchecked Sendable {
    // @unchecked: all mutable state (pending, requests, stopped, nextID) is guarded by `condition`.

    /// Queue and batch limits. Each field documents its default.
    struct Settings: Sendable {
        /// Merge sentences of different requests into one batch. When false each request is
        /// translated alone, as one batch of its own sentences. Default true.
        var batching = true
        /// Padded tokens (sentences × longest sentence) in one batch. Default 4096.
        var maxBatchTokens = 4096
        /// Sentences in one batch. Default 32.
        var maxBatchSentences = 32
        /// How long a worker waits for more sentences before translating a batch that is not
        /// full, while another worker is busy. Default 5 ms: small beside a sentence's
        /// translation, long enough for concurrent requests to meet.
        var maxWait: TimeInterval = 0.005
        /// Sentences waiting for a worker; a request that would go past it is refused with
        /// `overloaded` (HTTP 503), unless nothing waits (one request of any size is accepted).
        /// Default 4096.
        var maxQueuedSentences = 4096
    }

    /// One sentence waiting for a batch.
    private struct Item {
        let request: Int
        let index: Int
        let length: Int
        let key: BatchKey
        let arrival: TimeInterval
    }

    /// What can share a batch: the same loaded model and the same decoding options.
    private struct BatchKey: Equatable {
        let model: ObjectIdentifier
        let options: DecodingOptions
    }

    /// A caller's sentences, results so far, and how to resume it.
    private final class Request {
        let translator: Translator
        let sources: [[String]]
        var results: [[String]?]
        var remaining: Int
        let continuation: CheckedContinuation<[[String]], Error>
        init(translator: Translator, sources: [[String]], continuation: CheckedContinuation<[[String]], Error>) {
            self.translator = translator
            self.sources = sources
            self.results = Array(repeating: nil, count: sources.count)
            self.remaining = sources.count
            self.continuation = continuation
        }
    }

    private let settings: Settings
    private let condition = NSCondition()
    private var pending: [Item] = []
    private var requests: [Int: Request] = [:]
    private var stopped = false
    private var nextID = 0
    /// Workers translating a batch now.
    private var busy = 0
    private var counts = Counts()

    /// Batches translated so far, for tests and diagnostics.
    struct Counts: Sendable, Equatable {
        /// Batches translated.
        var batches = 0
        /// Batches that held sentences of more than one request.
        var shared = 0
    }

    /// The batches translated so far.
    var batchCounts: Counts {
        condition.lock()
        defer { condition.unlock() }
        return counts
    }

    /// Requests accepted and not yet answered, for tests and diagnostics.
    var waitingRequests: Int {
        condition.lock()
        defer { condition.unlock() }
        return requests.count
    }

    /// Starts `workers` threads, each with a workspace whose kernels use `threads` threads: set
    /// once here, never per request (the backend's library threads are set once by the engine).
    init(workers: Int, threads: Int, settings: Settings) {
        self.settings = settings
        for i in 0..<max(1, workers) {
            let thread = Thread { [self] in
                let workspace = Workspace()
                workspace.threads = max(1, threads)
                loop(workspace)
            }
            thread.name = "glossa-neural-\(i)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Translates `sources` (SentencePiece pieces) with `translator`; one target per source,
    /// in order. A cancelled caller's sentences that no batch has taken yet are withdrawn.
    /// - Throws: ``TranslationError`` `overloaded` when the queue is full, `cancelled`.
    func translate(_ sources: [[String]], translator: Translator, options: DecodingOptions) async throws -> [[String]] {
        if sources.isEmpty { return [] }
        let id = takeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                condition.lock()
                defer { condition.unlock() }
                if stopped || Task.isCancelled {
                    continuation.resume(throwing: TranslationError(.cancelled, stopped ? "The neural engine is shut down." : "The request was cancelled."))
                    return
                }
                if !pending.isEmpty && pending.count + sources.count > settings.maxQueuedSentences {
                    continuation.resume(throwing: TranslationError(.overloaded,
                        "The neural engine is busy: \(pending.count) sentences are waiting (at most \(settings.maxQueuedSentences)); retry shortly."))
                    return
                }
                requests[id] = Request(translator: translator, sources: sources, continuation: continuation)
                let key = BatchKey(model: ObjectIdentifier(translator), options: options)
                let now = ProcessInfo.processInfo.systemUptime
                for (index, source) in sources.enumerated() {
                    pending.append(Item(request: id, index: index, length: source.count, key: key, arrival: now))
                }
                condition.broadcast()
            }
        } onCancel: {
            withdraw(id, TranslationError(.cancelled, "The request was cancelled."))
        }
    }

    /// Stops the workers after the queued sentences.
    func shutdown() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func takeID() -> Int {
        condition.lock()
        defer { condition.unlock() }
        nextID += 1
        return nextID
    }

    /// Ends request `id` with `error` (if it is still waiting) and drops its queued sentences.
    private func withdraw(_ id: Int, _ error: Error) {
        condition.lock()
        let request = requests.removeValue(forKey: id)
        if request != nil { pending.removeAll { $0.request == id } }
        condition.unlock()
        request?.continuation.resume(throwing: error)
    }

    private func loop(_ workspace: Workspace) {
        while let (translator, key, items, sources) = nextBatch() {
            let outcome = Result { try translator.translate(sources, options: key.options, workspace: workspace) }
            deliver(items, outcome.map { $0.map(\.tokens) })
        }
    }

    /// Waits for work and takes the next batch off the queue; nil once stopped and drained.
    private func nextBatch() -> (Translator, BatchKey, [Item], [[String]])? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while pending.isEmpty && !stopped { condition.wait() }
            guard let oldest = pending.first else { return nil }   // stopped and drained
            guard let translator = requests[oldest.request]?.translator else {
                pending.removeFirst()   // cannot happen: a request leaves with its sentences
                continue
            }
            if !settings.batching {
                let items = pending.filter { $0.request == oldest.request }
                pending.removeAll { $0.request == oldest.request }
                return (translator, oldest.key, items, sources(of: items))
            }
            // Wait (bounded) for the batch to fill, unless it already can or we are stopping.
            let same = pending.indices.filter { pending[$0].key == oldest.key }
            let tokens = same.reduce(0) { $0 + max(1, pending[$1].length) }
            let deadline = oldest.arrival + settings.maxWait
            let now = ProcessInfo.processInfo.systemUptime
            if !stopped && busy > 0 && now < deadline && same.count < settings.maxBatchSentences && tokens < settings.maxBatchTokens {
                _ = condition.wait(until: Date(timeIntervalSinceNow: deadline - now))
                continue
            }
            let chosen = Self.lengthWindow(around: 0, in: same.map { pending[$0] }, settings: settings)
            let picked = Set(chosen.map { same[$0] })
            let items = chosen.map { pending[same[$0]] }
            pending = pending.enumerated().filter { !picked.contains($0.offset) }.map(\.element)
            return (translator, oldest.key, items, sources(of: items))
        }
    }

    /// The pieces of `items`; counts the batch and its worker as busy (called under the lock).
    private func sources(of items: [Item]) -> [[String]] {
        busy += 1
        counts.batches += 1
        if Set(items.map(\.request)).count > 1 { counts.shared += 1 }
        return items.map { requests[$0.request]?.sources[$0.index] ?? [] }
    }

    /// Positions (in `candidates`) of a batch that holds `candidates[anchor]` and the sentences
    /// closest to it in length, within the token and sentence budgets. Ties go to the earlier.
    private static func lengthWindow(around anchor: Int, in candidates: [Item], settings: Settings) -> [Int] {
        // Candidates by length (stable: arrival order within a length).
        let order = candidates.indices.sorted { (candidates[$0].length, $0) < (candidates[$1].length, $1) }
        let at = order.firstIndex(of: anchor)!
        var low = at, high = at
        var longest = max(1, candidates[anchor].length)
        while high - low + 1 < settings.maxBatchSentences {
            let below = low > 0 ? order[low - 1] : nil
            let above = high + 1 < order.count ? order[high + 1] : nil
            let anchorLength = candidates[anchor].length
            let next: Int?
            switch (below, above) {
            case let (b?, a?): next = (anchorLength - candidates[b].length) <= (candidates[a].length - anchorLength) ? b : a
            case let (b?, nil): next = b
            case let (nil, a?): next = a
            default: next = nil
            }
            guard let n = next else { break }
            let newLongest = max(longest, candidates[n].length)
            guard (high - low + 2) * newLongest <= settings.maxBatchTokens else { break }
            longest = newLongest
            if n == below { low -= 1 } else { high += 1 }
        }
        // Back in arrival order, so one request's sentences keep their relative order.
        return order[low...high].sorted()
    }

    /// Hands each item's translation to its request; resumes requests that are complete.
    private func deliver(_ items: [Item], _ outcome: Result<[[String]], Error>) {
        var done: [(Request, Result<[[String]], Error>)] = []
        condition.lock()
        busy -= 1
        switch outcome {
        case .success(let targets):
            for (item, target) in zip(items, targets) {
                guard let request = requests[item.request] else { continue }
                request.results[item.index] = target
                request.remaining -= 1
                if request.remaining == 0 {
                    requests[item.request] = nil
                    done.append((request, .success(request.results.map { $0! })))
                }
            }
        case .failure(let error):
            for id in Set(items.map(\.request)) {
                guard let request = requests.removeValue(forKey: id) else { continue }
                pending.removeAll { $0.request == id }
                done.append((request, .failure(error)))
            }
        }
        condition.unlock()
        // Resumed outside the lock: a resumed caller may enqueue again at once.
        for (request, result) in done { request.continuation.resume(with: result) }
    }
}
