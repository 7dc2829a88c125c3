import CMicroHTTPD
import CMicroHTTPDShim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Connections: admission at the limit, deadlines, clients that leave, the drain at shutdown.
/// The decisions are ``ConnectionTable``'s; this file carries them out on sockets and tasks.
extension ServerCore {
    /// MHD's connection notification (the connection's I/O thread).
    func connectionStarted(_ connection: OpaquePointer) {
        let handle = ConnectionHandle(pointer: connection)
        let fd = glossa_mhd_connection_fd(connection)
        let now = ContinuousClock.now
        state.withLock { s in
            switch s.table.opened(handle.id, now: now) {
            case .admit:
                s.sockets[handle.id] = fd
            case .admitEvicting(let victim):
                s.sockets[handle.id] = fd
                if let victimSocket = s.sockets[victim] { _ = shutdownSocket(victimSocket) }
            case .refuse:
                // Refused at once: the client reads the end of the connection now, instead of
                // waiting in the kernel's backlog for a slot (MHD's own limit sits above ours).
                _ = shutdownSocket(fd)
            }
        }
    }

    /// MHD's close notification, called before MHD closes the socket.
    func connectionClosed(_ connection: OpaquePointer) {
        let id = ConnectionHandle(pointer: connection).id
        state.withLock { s in
            s.table.closed(id)
            s.sockets[id] = nil
            s.requests[id] = nil
        }
    }

    /// Whether the server is draining (shutting down).
    var isDraining: Bool { state.withLock { $0.table.draining } }

    /// Connections suspended by this server and not yet called back by MHD after their resume.
    var suspendedCount: Int { state.withLock { $0.table.suspended.count } }

    /// Starts the drain: no new connections, idle keep-alive connections closed, every later
    /// response marked `Connection: close`.
    func beginDrain() {
        state.withLock { s in
            for id in s.table.beginDrain(now: .now) {
                if let fd = s.sockets[id] { _ = shutdownSocket(fd) }
            }
        }
    }

    /// Shutdown past the drain deadline: cancels every handler task and stream still running,
    /// so each produces its response (a 503 in its protocol's envelope) and resumes.
    func cancelAll() {
        for context in state.withLock({ Array($0.active.values) }) { context.cancelWork() }
    }

    /// Shutdown past the cancellation grace: answers, on the handler's behalf, every request whose
    /// handler still holds its connection suspended (503), and ends every stream still waiting
    /// for bytes with an error, so that no connection stays suspended when MHD is stopped.
    func answerAbandoned() {
        for context in state.withLock({ Array($0.active.values) }) {
            let (stream, request) = context.outcome.withLock { ($0.stream, $0.request) }
            if let stream {
                stream.abort()
            } else if let request, context.answer(handler.abandonedResponse(for: request)) {
                MHD_resume_connection(context.connection.pointer)
            }
        }
    }

    /// Suspended connections whose client has not been seen leaving, with their sockets.
    func watchedSockets() -> [(id: Int, fd: Int32)] {
        state.withLock { s in
            s.table.suspended.compactMap { id in
                guard let fd = s.sockets[id], s.requests[id]?.outcome.withLock({ !$0.clientLeft }) ?? false else { return nil }
                return (id, fd)
            }
        }
    }

    /// The clients of these suspended connections closed their side: their work is for nobody,
    /// so it is cancelled (the handler then answers into a closed connection, which MHD drops).
    func clientsLeft(_ ids: [Int]) {
        let contexts = state.withLock { s in
            ids.compactMap { id -> RequestContext? in s.table.isSuspended(id) ? s.requests[id] : nil }
        }
        for context in contexts {
            context.outcome.withLock { $0.clientLeft = true }
            context.cancelWork()
        }
    }

    /// Closes the connections past their phase's deadline (a trickling request line, head or
    /// body).
    func closeExpired(now: ContinuousClock.Instant) {
        state.withLock { s in
            for id in s.table.expired(now: now) {
                if let fd = s.sockets[id] { _ = shutdownSocket(fd) }
            }
        }
    }

    /// Queues `response` on `connection` (I/O thread, in the access handler).
    /// - Parameter close: close the connection after it (the rest of the request is unread or
    ///   cannot be trusted).
    func queue(_ response: HTTPResponse, context: RequestContext, connection: OpaquePointer, close: Bool) -> MHD_Result {
        context.phase = .responded
        state.withLock { $0.table.responding(context.connection.id) }
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes {
                MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            let id = context.connection.id
            let body = StreamingBody(
                connection: context.connection,
                onSuspend: { [self] in state.withLock { $0.table.streamWaiting(id) } },
                onResumed: { [self] in state.withLock { $0.table.responding(id) } })
            let cancelled = context.adopt(body)
            // The reader's context is retained once here and released by MHD's free callback.
            made = MHD_create_response_from_callback(
                UInt64.max /* MHD_SIZE_UNKNOWN: chunked */, 16 * 1024, streamReader,
                Unmanaged.passRetained(body).toOpaque(), streamFree)
            if made != nil {
                body.start(stream)
                if cancelled { body.cancel() }
            }
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        var closing = close || isDraining
        for (name, value) in response.headers {
            let lower = name.lowercased()
            if lower == "content-length" || lower == "transfer-encoding" { continue }
            if lower == "connection" {
                // Only `close` is the handler's to say; keep-alive is the server's decision.
                closing = closing || value.lowercased().contains("close")
                continue
            }
            _ = MHD_add_response_header(made, name, value)
        }
        if closing { _ = MHD_add_response_header(made, "Connection", "close") }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}

/// Ends both directions of a socket that MHD owns; MHD sees the end on its next read and closes
/// the connection itself (closing it here would race MHD's own use of the descriptor).
@discardableResult
func shutdownSocket(_ fd: Int32) -> Bool {
    fd >= 0 && Glibc.shutdown(fd, Int32(SHUT_RDWR)) == 0
}

/// MHD's content reader for streamed bodies; `cls` is the retained ``StreamingBody``.
private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
    return Unmanaged<StreamingBody>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
}

/// Releases the ``StreamingBody`` retained for the reader when MHD destroys the response.
private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamingBody>.fromOpaque(cls).release()
}
