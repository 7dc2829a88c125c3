import TranslationCore

/// The pipelines of one mode: a thin actor that feeds events to `PipelinePoolStateMachine` and
/// performs the actions it returns. All policy lives in the state machine.
actor PipelinePool<Pipeline: PoolPipeline> {
    typealias Machine = PipelinePoolStateMachine<ContinuousClock.Instant>

    /// The mode's name, for messages.
    nonisolated let label: String
    private var machine: Machine
    private let makePipeline: @Sendable () async throws -> Pipeline
    private let clock = ContinuousClock()
    private var pipelines: [Machine.PipelineID: Pipeline] = [:]
    private var requests: [Machine.RequestID: PendingRequest] = [:]
    private var nextRequest = 0
    private var started = false
    private var timer: (deadline: ContinuousClock.Instant, task: Task<Void, Never>)?
    /// Callers waiting for `waitUntilReady`.
    private var readyWaiters: [CheckedContinuation<Void, Never>] = []
    /// Each live pipeline's first memory reading and when it was last read (see `outgrew`).
    private var memory: [Machine.PipelineID: (baseline: Int, checked: ContinuousClock.Instant)] = [:]
    /// How often a pipeline's memory is read at most (each reading is a few reads of /proc).
    private let memoryCheckInterval: Duration

    private struct PendingRequest {
        var chunks: [[UInt8]]
        var continuation: CheckedContinuation<[[UInt8]], any Error>
        var output: [[UInt8]]?
    }

    /// Makes a pool; `start()` opens it. A pipeline's memory is read after a request at most
    /// every `memoryCheckInterval`.
    init(label: String, limits: Machine.Limits, memoryCheckInterval: Duration = .seconds(10),
         makePipeline: @escaping @Sendable () async throws -> Pipeline) {
        self.label = label
        self.memoryCheckInterval = memoryCheckInterval
        self.machine = Machine(limits: limits)
        self.makePipeline = makePipeline
    }

    /// Starts the minimum number of pipelines (in the background).
    func start() {
        guard !started else { return }
        started = true
        perform(machine.start(now: clock.now))
    }

    /// Waits until at least one pipeline is up or no start is under way.
    func waitUntilReady() async {
        if isReadyOrIdle { return }
        await withCheckedContinuation { readyWaiters.append($0) }
    }

    private var isReadyOrIdle: Bool {
        let counts = machine.counts
        return counts.idle > 0 || counts.pipelines == 0 || pipelines.count > 0
    }

    /// Translates `chunks` on one pipeline, retrying once on a fresh one if it breaks.
    /// A caller's cancellation withdraws the request at once (`.cancelled`): from the queue, or
    /// from its pipeline, which finishes a small request for nobody and is stopped under a large
    /// one (see `PipelinePoolStateMachine.cancel`).
    func submit(_ chunks: [[UInt8]]) async throws -> [[UInt8]] {
        if chunks.isEmpty { return [] }
        let id = nextRequest
        nextRequest += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before it was filed: the handler below found nothing to withdraw.
                if Task.isCancelled {
                    continuation.resume(throwing: TranslationError(.cancelled, "The request was cancelled."))
                    return
                }
                requests[id] = PendingRequest(chunks: chunks, continuation: continuation)
                perform(machine.request(id, now: clock.now))
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Requests up to this many bytes are left to finish on their pipeline when their caller
    /// gives up (their answer dropped) instead of stopping it: 16 KB of FLORES English take
    /// eng-spa about 0.3 CPU seconds, about what its twelve stages take to start again (0.26 s,
    /// `time (echo Hello. | apertium -u eng-spa)`) before their cold caches are counted. Up to
    /// this size finishing costs no more than a restart, and keeps the pipeline's capacity.
    static var smallRequestBytes: Int { 16 * 1024 }

    private func cancel(_ id: Machine.RequestID) {
        let small = requests[id].map { $0.chunks.reduce(0) { $0 + $1.count } <= Self.smallRequestBytes } ?? false
        perform(machine.cancel(id, small: small, now: clock.now))
    }

    /// The processes of every live pipeline (bash and its stages), one list per pipeline.
    func processIDs() -> [[Int32]] {
        pipelines.keys.sorted().map { pipelines[$0]!.processIDs }
    }

    /// Pipelines alive (started and not stopped).
    func liveCount() -> Int { pipelines.count }

    /// Stops the pool's pipelines once no request needs them, to free their memory; the next
    /// request starts one again. No caller is failed or delayed.
    func close() {
        perform(machine.close(now: clock.now))
    }

    /// Closes the pool when nothing has waited or run for `idle`; returns whether it did (false
    /// when it is in use or was used more recently).
    func closeIfIdle(for idle: Duration) -> Bool {
        let now = clock.now
        guard let actions = machine.closeIfIdle(since: now.advanced(by: .zero - idle), now: now) else { return false }
        perform(actions)
        return true
    }

    /// Fails waiting callers and stops every pipeline.
    func shutdown() {
        perform(machine.shutdown())
        timer?.task.cancel()
        timer = nil
    }

    // MARK: Executing actions

    private func perform(_ actions: [Machine.Action]) {
        for action in actions {
            switch action {
            case .startPipeline(let id):
                Task { await self.startPipeline(id) }
            case .run(let request, let pipelineID):
                guard let pipeline = pipelines[pipelineID], let chunks = requests[request]?.chunks else {
                    // Cannot happen while the machine and this actor agree; if it does, report a
                    // failure so the request is retried rather than left waiting forever.
                    let error = TranslationError(.engineFailure, "The Apertium pipeline for \(label) vanished.")
                    Task { self.perform(self.machine.requestFailed(request, on: pipelineID, error: error, now: self.clock.now)) }
                    continue
                }
                Task { await self.run(request, chunks: chunks, on: pipeline, id: pipelineID) }
            case .stopPipeline(let id):
                memory[id] = nil
                pipelines.removeValue(forKey: id)?.terminate()
            case .succeed(let request):
                if let pending = requests.removeValue(forKey: request) {
                    pending.continuation.resume(returning: pending.output ?? [])
                }
            case .fail(let request, let error):
                requests.removeValue(forKey: request)?.continuation.resume(throwing: error)
            }
        }
        armTimer()
        if isReadyOrIdle && !readyWaiters.isEmpty {
            let waiters = readyWaiters
            readyWaiters = []
            waiters.forEach { $0.resume() }
        }
    }

    private func startPipeline(_ id: Machine.PipelineID) async {
        do {
            let pipeline = try await makePipeline()
            pipelines[id] = pipeline
            perform(machine.pipelineStarted(id, now: clock.now))
        } catch {
            perform(machine.pipelineFailedToStart(id, error: Self.engineError(error, label: label), now: clock.now))
        }
    }

    private func run(_ request: Machine.RequestID, chunks: [[UInt8]], on pipeline: Pipeline, id: Machine.PipelineID) async {
        do {
            let output = try await pipeline.run(chunks) { [weak self] in
                Task { await self?.progressed(request, on: id) }
            }
            requests[request]?.output = output
            perform(machine.requestSucceeded(request, on: id, outgrown: outgrew(pipeline, id: id), now: clock.now))
        } catch {
            perform(machine.requestFailed(request, on: id, error: Self.engineError(error, label: label), now: clock.now))
        }
    }

    /// Whether the pipeline's processes have grown more than `maxMemoryGrowth` past their first
    /// reading (taken after its first request, once its stages have loaded their data). Read at
    /// most every `memoryCheckInterval`; a pipeline that cannot be read never counts as grown.
    private func outgrew(_ pipeline: Pipeline, id: Machine.PipelineID) -> Bool {
        let now = clock.now
        if let last = memory[id], now - last.checked < memoryCheckInterval { return false }
        guard let bytes = pipeline.residentBytes() else { return false }
        let baseline = memory[id]?.baseline ?? bytes
        memory[id] = (baseline, now)
        return bytes - baseline > machine.limits.maxMemoryGrowth
    }

    private func progressed(_ request: Machine.RequestID, on id: Machine.PipelineID) {
        machine.requestProgressed(request, on: id, now: clock.now)
        armTimer()
    }

    /// Keeps one timer task sleeping until the earliest deadline.
    private func armTimer() {
        guard let deadline = machine.nextDeadline else {
            timer?.task.cancel()
            timer = nil
            return
        }
        if let timer, timer.deadline <= deadline { return }
        timer?.task.cancel()
        let task = Task { [clock] in
            try? await clock.sleep(until: deadline, tolerance: .milliseconds(10))
            if Task.isCancelled { return }
            self.fire()
        }
        timer = (deadline, task)
    }

    private func fire() {
        timer = nil
        perform(machine.tick(now: clock.now))
    }

    private static func engineError(_ error: any Error, label: String) -> TranslationError {
        (error as? TranslationError) ?? TranslationError(.engineFailure, "The Apertium pipeline for \(label) failed: \(error).")
    }
}
