/// Every open connection's phase and deadline, as a pure value: the server's callbacks report
/// events, the watchdog asks which connections to close; nothing happens here. Tests drive it
/// with made-up instants (the pattern of `PipelinePoolStateMachine`).
///
/// Invariants:
/// - at most `maxConnections` connections are admitted; at the limit a new one evicts a
///   connection that is idle between requests or stalled in its request head, or is refused at
///   once: a new client is never left waiting in the kernel's backlog;
/// - libmicrohttpd's own timeout only measures idleness, and a client sending a byte a second is
///   never idle, so each phase of receiving a request has a deadline of its own, counted from the
///   phase's start: trickling is not idleness;
/// - time spent in the handler or waiting for a streamed response's next bytes has no deadline
///   (that is the handler's business), but those connections are watched for the client leaving;
/// - once draining, no newcomer is admitted, and connections idle between requests are closed
///   (after a second of idleness, so a request already on its way is answered, not lost).
struct ConnectionTable<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// Limits; `HTTPServerConfiguration` documents the defaults.
    struct Limits: Sendable, Equatable {
        /// Most admitted connections.
        var maxConnections: Int
        /// From being ready for a request (accepted, or the previous response sent) to its
        /// request line.
        var requestLineTimeout: Duration
        /// From the request line to the end of the head.
        var headTimeout: Duration
        /// From the end of the head to the end of the body.
        var bodyTimeout: Duration
        /// At the limit, a connection this long waiting for or receiving its request head may be
        /// evicted: a client that is not trickling sends its head in one packet. Counted from
        /// when the connection became ready for the request, across the request-line and head
        /// phases: a trickler that has just finished its request line is no fresher than before.
        var stalledAfter: Duration = .seconds(1)
        /// While draining, a connection idle this long between requests is closed. Not at once:
        /// a client in the middle of a keep-alive exchange sends its next request within
        /// milliseconds, and closing under it would lose that request; it is answered instead
        /// (with `Connection: close`).
        var drainIdleAfter: Duration = .seconds(1)
    }

    /// The connection's identity (the server uses the libmicrohttpd connection's address).
    typealias ID = Int

    /// Where a connection stands.
    enum Phase: Equatable {
        /// Waiting for a request line.
        case awaitingRequest(since: Instant)
        /// The request line arrived; the rest of the head has not.
        case receivingHead(since: Instant)
        /// The head arrived; the body is arriving.
        case receivingBody(since: Instant)
        /// Suspended while the handler works.
        case handling
        /// The response is being sent.
        case responding
        /// Suspended while a streamed response waits for its next bytes.
        case streamWaiting
    }

    /// What to do with a connection that just opened.
    enum Admission: Equatable {
        case admit
        /// Admit it and close this other connection to make room.
        case admitEvicting(ID)
        /// Close it at once.
        case refuse
    }

    private struct Entry {
        var phase: Phase
        /// When the connection became ready for its current request (accepted, or the previous
        /// response sent): what eviction measures a stall from, whatever phase the head is in.
        var readySince: Instant
        /// Requests completed on this connection.
        var served = 0
    }

    let limits: Limits
    private var entries: [ID: Entry] = [:]
    private(set) var draining = false

    init(limits: Limits) {
        var limits = limits
        limits.maxConnections = max(1, limits.maxConnections)
        self.limits = limits
    }

    /// Admitted connections.
    var count: Int { entries.count }

    /// The phase of `id`; nil when it is not (or no longer) admitted.
    func phase(of id: ID) -> Phase? { entries[id]?.phase }

    /// A connection opened.
    mutating func opened(_ id: ID, now: Instant) -> Admission {
        if draining { return .refuse }
        guard entries.count >= limits.maxConnections else {
            entries[id] = Entry(phase: .awaitingRequest(since: now), readySince: now)
            return .admit
        }
        guard let victim = evictionCandidate(now: now) else { return .refuse }
        entries[victim] = nil
        entries[id] = Entry(phase: .awaitingRequest(since: now), readySince: now)
        return .admitEvicting(victim)
    }

    /// The request line arrived.
    mutating func requestLine(_ id: ID, now: Instant) { update(id, to: .receivingHead(since: now)) }

    /// The head arrived; the body (possibly empty) follows.
    mutating func headReceived(_ id: ID, now: Instant) { update(id, to: .receivingBody(since: now)) }

    /// The connection was suspended for the handler.
    mutating func handling(_ id: ID) { update(id, to: .handling) }

    /// The connection is sending its response (after a resume, or an answer given at once).
    mutating func responding(_ id: ID) { update(id, to: .responding) }

    /// The connection was suspended until a stream has more bytes.
    mutating func streamWaiting(_ id: ID) { update(id, to: .streamWaiting) }

    /// A request finished (answered or failed). Returns whether to close the connection now:
    /// while draining, a connection is not kept for another request.
    mutating func requestCompleted(_ id: ID, now: Instant) -> Bool {
        guard entries[id] != nil else { return false }
        entries[id]!.phase = .awaitingRequest(since: now)
        entries[id]!.readySince = now
        entries[id]!.served += 1
        return draining
    }

    /// The connection closed.
    mutating func closed(_ id: ID) { entries[id] = nil }

    /// Connections past their phase's deadline, now forgotten: the caller closes them.
    mutating func expired(now: Instant) -> [ID] {
        let late = entries.compactMap { id, entry -> ID? in
            switch entry.phase {
            case .awaitingRequest(let since):
                if draining && entry.served > 0 && since.duration(to: now) >= limits.drainIdleAfter { return id }
                return since.duration(to: now) >= limits.requestLineTimeout ? id : nil
            case .receivingHead(let since): return since.duration(to: now) >= limits.headTimeout ? id : nil
            case .receivingBody(let since): return since.duration(to: now) >= limits.bodyTimeout ? id : nil
            case .handling, .responding, .streamWaiting: return nil
            }
        }
        for id in late { entries[id] = nil }
        return late.sorted()
    }

    /// Suspended connections, to watch for the client leaving.
    var suspended: [ID] {
        entries.compactMap { id, entry in isSuspended(id) ? id : nil }.sorted()
    }

    /// Whether `id` is suspended now.
    func isSuspended(_ id: ID) -> Bool { entries[id]?.phase == .handling || entries[id]?.phase == .streamWaiting }

    /// Starts draining. Returns the connections idle between requests for at least
    /// `drainIdleAfter`, now forgotten: the caller closes them (``expired(now:)`` returns the
    /// others once they have idled that long). Those in the middle of a request finish it and
    /// then close.
    mutating func beginDrain(now: Instant) -> [ID] {
        draining = true
        return expired(now: now)
    }

    /// The connection to close for a newcomer at the limit: the one idle longest between
    /// requests, else the one stalled longest in its request line or head.
    private func evictionCandidate(now: Instant) -> ID? {
        var idle: (ID, Instant)?
        var stalled: (ID, Instant)?
        for (id, entry) in entries {
            switch entry.phase {
            case .awaitingRequest(let since) where entry.served > 0:
                if idle == nil || since < idle!.1 || (since == idle!.1 && id < idle!.0) { idle = (id, since) }
            case .awaitingRequest, .receivingHead:
                let since = entry.readySince
                guard since.duration(to: now) >= limits.stalledAfter else { continue }
                if stalled == nil || since < stalled!.1 || (since == stalled!.1 && id < stalled!.0) { stalled = (id, since) }
            default:
                continue
            }
        }
        return idle?.0 ?? stalled?.0
    }

    private mutating func update(_ id: ID, to phase: Phase) {
        guard entries[id] != nil else { return }
        entries[id]!.phase = phase
    }
}
