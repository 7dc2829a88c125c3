import TranslationCore

/// The pool's decisions as a pure value: events go in, actions come out, nothing happens here.
/// A thin actor (`PipelinePool`) performs the actions; tests drive this type directly with
/// made-up instants. (The shape follows async-http-client's
/// `HTTPConnectionPool+StateMachine.swift`: state changes and the actions they imply in one place.)
///
/// Invariants:
/// - a pipeline serves one request at a time (a stream has one reader: two callers sharing a
///   pipeline would need their outputs told apart by marker, and one slow input would stall both);
/// - pipelines alive or starting never exceed `maxPipelines`;
/// - a request runs at most twice: when its pipeline dies or passes the deadline, that pipeline is
///   retired and the request goes to the front of the queue for a fresh one; a second failure is
///   reported to the caller;
/// - a late answer from a retired pipeline is ignored (the request may already be elsewhere);
/// - a request whose caller gave up either stops its pipeline or, when it is small, is left to
///   finish on it and its answer dropped (abandoned: its pipeline is busy with it, but it is no
///   longer in `running`); it is never retried;
/// - a closed pool keeps no idle pipeline: its processes stop as soon as nothing waits for them,
///   and the next request opens it again (so closing never fails or delays a caller).
struct PipelinePoolStateMachine<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// Sizes and limits; see `ApertiumEngine.Configuration` for the defaults.
    struct Limits: Sendable, Equatable {
        var minPipelines: Int
        var maxPipelines: Int
        /// Bytes a pipeline's processes may grow past their size when first measured before it
        /// is replaced. `PipelinePool` measures (reading /proc is I/O) and reports it through
        /// `requestSucceeded(_:on:outgrown:now:)`; the decision to retire is taken here.
        var maxMemoryGrowth: Int
        var requestTimeout: Duration
    }

    typealias PipelineID = Int
    typealias RequestID = Int

    /// What the executor must do, in order.
    enum Action: Equatable {
        /// Start a new pipeline and report `pipelineStarted` or `pipelineFailedToStart`.
        case startPipeline(PipelineID)
        /// Run the request on the pipeline and report `requestSucceeded` or `requestFailed`.
        case run(RequestID, on: PipelineID)
        /// Stop the pipeline's processes (it is already forgotten here).
        case stopPipeline(PipelineID)
        /// Give the caller the answer the pipeline returned.
        case succeed(RequestID)
        /// Give the caller this error.
        case fail(RequestID, TranslationError)
    }

    private enum PipelineState: Equatable {
        case starting
        case idle
        case busy(RequestID, deadline: Instant)
    }

    private struct Waiting: Equatable {
        var request: RequestID
        var attempt: Int
    }

    let limits: Limits
    private var pipelines: [PipelineID: PipelineState] = [:]
    private var queue: [Waiting] = []
    /// The requests on a pipeline whose caller still waits. A busy pipeline's request that is
    /// missing here was abandoned: its answer is for nobody, and the pipeline becomes idle again
    /// when it comes (or is stopped if it breaks or hangs).
    private var running: [RequestID: (pipeline: PipelineID, attempt: Int)] = [:]
    private var nextPipeline = 0
    private var isShutDown = false
    /// After a pipeline failed to start, only callers trigger new starts (no restart loop).
    private var startsFailing = false
    /// Closed by the engine to free memory (``close(now:)``); a request opens the pool again.
    private(set) var isClosed = false
    /// When a caller last asked for or got an answer (nil: never), for closing pools left idle.
    private(set) var lastActivity: Instant?

    init(limits: Limits) {
        var limits = limits
        limits.minPipelines = max(0, limits.minPipelines)
        limits.maxPipelines = max(1, limits.maxPipelines, limits.minPipelines)
        limits.maxMemoryGrowth = max(0, limits.maxMemoryGrowth)
        self.limits = limits
    }

    /// The earliest deadline of a running request, for the executor's timer.
    var nextDeadline: Instant? {
        pipelines.values.compactMap { if case .busy(_, let d) = $0 { d } else { nil } }.min()
    }

    /// Whether no request waits or runs.
    var isIdle: Bool { queue.isEmpty && running.isEmpty }

    /// Pipelines alive or starting, and requests waiting (for introspection and tests).
    var counts: (pipelines: Int, idle: Int, waiting: Int) {
        (pipelines.count, pipelines.values.filter { if case .idle = $0 { true } else { false } }.count, queue.count)
    }

    // MARK: Events

    /// The pool opens: start the minimum number of pipelines.
    mutating func start(now: Instant) -> [Action] { schedule(now: now) }

    /// A caller asks for a translation.
    mutating func request(_ id: RequestID, now: Instant) -> [Action] {
        if isShutDown { return [.fail(id, TranslationError(.cancelled, "The Apertium engine is shutting down."))] }
        queue.append(Waiting(request: id, attempt: 0))
        isClosed = false
        lastActivity = now
        // A caller is a reason to try starting again even after start failures.
        return schedule(now: now, forceStart: true)
    }

    /// A pipeline finished starting.
    mutating func pipelineStarted(_ id: PipelineID, now: Instant) -> [Action] {
        guard pipelines[id] == .starting else { return [.stopPipeline(id)] }
        startsFailing = false
        pipelines[id] = .idle
        return schedule(now: now)
    }

    /// A pipeline could not start: with nothing else alive, the waiting callers get `error`.
    mutating func pipelineFailedToStart(_ id: PipelineID, error: TranslationError, now: Instant) -> [Action] {
        guard pipelines.removeValue(forKey: id) != nil else { return [] }
        startsFailing = true
        if pipelines.isEmpty {
            let failed = queue.map { Action.fail($0.request, error) }
            queue.removeAll()
            return failed
        }
        return schedule(now: now)
    }

    /// A running request produced output: its deadline moves on.
    mutating func requestProgressed(_ id: RequestID, on pipeline: PipelineID, now: Instant) {
        guard case .busy(id, _) = pipelines[pipeline] else { return }
        pipelines[pipeline] = .busy(id, deadline: now.advanced(by: limits.requestTimeout))
    }

    /// A request came back from its pipeline, which has `outgrown` its memory bound or not.
    mutating func requestSucceeded(_ id: RequestID, on pipeline: PipelineID, outgrown: Bool = false, now: Instant) -> [Action] {
        guard case .busy(id, _) = pipelines[pipeline] else { return [] }
        let abandoned = running.removeValue(forKey: id) == nil
        lastActivity = now
        // An abandoned request's caller already has its `.cancelled`.
        var actions: [Action] = abandoned ? [] : [.succeed(id)]
        if outgrown {
            // Replacing a pipeline whose stages grew bounds their slow growth (lrx-proc keeps
            // about 100 bytes per sentence). Why not after a count of uses: a restart costs its
            // stages' start-up on the machine's cores (a quarter of a CPU second for eng-spa),
            // stalling the requests around it, and a pipeline that does not grow needs none.
            pipelines[pipeline] = nil
            actions.append(.stopPipeline(pipeline))
        } else {
            pipelines[pipeline] = .idle
        }
        return actions + schedule(now: now)
    }

    /// The request's pipeline broke (a stage died, the framing was lost).
    mutating func requestFailed(_ id: RequestID, on pipeline: PipelineID, error: TranslationError, now: Instant) -> [Action] {
        guard case .busy(id, _) = pipelines[pipeline] else { return [] }
        if running[id] == nil { return stopAbandoned(pipeline, now: now) }
        return retire(pipeline, request: id, error: error, now: now)
    }

    /// Time passed: requests past their deadline are treated as hung.
    mutating func tick(now: Instant) -> [Action] {
        var actions: [Action] = []
        let overdue = pipelines.compactMap { id, state -> (PipelineID, RequestID)? in
            if case .busy(let request, let deadline) = state, deadline <= now { return (id, request) }
            return nil
        }.sorted { $0.0 < $1.0 }
        for (pipeline, request) in overdue {
            if running[request] == nil { actions += stopAbandoned(pipeline, now: now); continue }
            let error = TranslationError(.timeout, "The Apertium pipeline gave no answer within \(limits.requestTimeout) and was stopped.")
            actions += retire(pipeline, request: request, error: error, now: now)
        }
        return actions
    }

    /// The caller gave up (its task was cancelled: a client hung up, or the server is shutting
    /// down): the request is withdrawn, not waited for, and the caller gets `.cancelled` now. A
    /// waiting one leaves the queue. A running one's answer is for nobody, and a pipeline cannot
    /// drop one request midway without losing its framing: when the request is `small` (the
    /// rest of it costs no more than a pipeline's restart), it is left to finish and its answer is
    /// dropped, so the warm pipeline is kept; otherwise its pipeline is stopped (a fresh one
    /// starts if needed). Why keep it: a restart costs every stage its start-up (about a quarter
    /// of a CPU second for eng-spa) and a cold cache, and clients that hang up on short requests
    /// (timeouts, a benchmark's last requests, or one doing it on purpose) would otherwise make
    /// the server pay that again and again.
    mutating func cancel(_ id: RequestID, small: Bool = false, now: Instant) -> [Action] {
        let error = TranslationError(.cancelled, "The request was cancelled.")
        if let index = queue.firstIndex(where: { $0.request == id }) {
            queue.remove(at: index)
            return [.fail(id, error)]
        }
        guard let pipeline = running.removeValue(forKey: id)?.pipeline else { return [] }
        // Small: the pipeline stays busy with it, now abandoned (see `running`).
        if small { return [.fail(id, error)] }
        pipelines[pipeline] = nil
        return [.stopPipeline(pipeline), .fail(id, error)] + schedule(now: now)
    }

    /// The engine closes the pool to free memory: idle pipelines stop now, busy ones once their
    /// request is answered and nothing else waits; no caller is failed. The next request opens it
    /// again (its pipeline starts then, as on first use).
    mutating func close(now: Instant) -> [Action] {
        isClosed = true
        return schedule(now: now)
    }

    /// Closes the pool when no request has waited or run since `cutoff`; returns nil (and
    /// changes nothing) when it is in use or was used later.
    mutating func closeIfIdle(since cutoff: Instant, now: Instant) -> [Action]? {
        guard isIdle, lastActivity.map({ $0 <= cutoff }) ?? true else { return nil }
        return close(now: now)
    }

    /// The pool shuts down: every caller gets `.cancelled`, every pipeline stops.
    mutating func shutdown() -> [Action] {
        isShutDown = true
        let error = TranslationError(.cancelled, "The Apertium engine is shutting down.")
        var actions = queue.map { Action.fail($0.request, error) }
        actions += running.keys.sorted().map { Action.fail($0, error) }
        actions += pipelines.keys.sorted().map { Action.stopPipeline($0) }
        queue.removeAll()
        running.removeAll()
        pipelines.removeAll()
        return actions
    }

    // MARK: Decisions

    /// Stops the pipeline of an abandoned request that broke or hung (nobody to retry it for).
    private mutating func stopAbandoned(_ pipeline: PipelineID, now: Instant) -> [Action] {
        pipelines[pipeline] = nil
        return [.stopPipeline(pipeline)] + schedule(now: now)
    }

    /// Retires `pipeline` and retries `request` once, or fails it.
    private mutating func retire(_ pipeline: PipelineID, request: RequestID, error: TranslationError, now: Instant) -> [Action] {
        pipelines[pipeline] = nil
        var actions: [Action] = [.stopPipeline(pipeline)]
        let attempt = running.removeValue(forKey: request)?.attempt ?? 0
        if attempt == 0 {
            // Front of the queue: this caller has waited longest.
            queue.insert(Waiting(request: request, attempt: 1), at: 0)
        } else {
            let kind: TranslationError.Kind = error.kind == .timeout ? .timeout : .engineFailure
            actions.append(.fail(request, TranslationError(kind, "\(error.message) The retry on a fresh pipeline failed too.")))
        }
        return actions + schedule(now: now, forceStart: true)
    }

    /// Hands waiting requests to idle pipelines and starts pipelines that are needed.
    private mutating func schedule(now: Instant, forceStart: Bool = false) -> [Action] {
        guard !isShutDown else { return [] }
        var actions: [Action] = []
        while !queue.isEmpty, let idle = pipelines.filter({ if case .idle = $0.value { true } else { false } }).keys.min() {
            guard case .idle = pipelines[idle] else { break }
            let waiting = queue.removeFirst()
            pipelines[idle] = .busy(waiting.request, deadline: now.advanced(by: limits.requestTimeout))
            running[waiting.request] = (idle, waiting.attempt)
            actions.append(.run(waiting.request, on: idle))
        }
        if isClosed && queue.isEmpty {
            // Closed: what is idle stops now (a starting pipeline stops when it reports in).
            for id in pipelines.filter({ if case .idle = $0.value { true } else { false } }).keys.sorted() {
                pipelines[id] = nil
                actions.append(.stopPipeline(id))
            }
            return actions
        }
        let starting = pipelines.values.filter { $0 == .starting }.count
        var wanted = max(queue.count - starting, 0)
        if !isClosed && (!startsFailing || forceStart) { wanted = max(wanted, limits.minPipelines - pipelines.count) }
        if startsFailing && !forceStart { wanted = 0 }
        while wanted > 0 && pipelines.count < limits.maxPipelines {
            let id = nextPipeline
            nextPipeline += 1
            pipelines[id] = .starting
            actions.append(.startPipeline(id))
            wanted -= 1
        }
        return actions
    }
}
