import CMicroHTTPD
import CMicroHTTPDShim
import Synchronization

/// The Swift side of the daemon: turns MHD's callbacks into ``HTTPRequest``s, runs the handler on
/// a task while the connection is suspended, and queues its ``HTTPResponse``. Connection
/// bookkeeping (limits, deadlines, drain) is in `ServerCore+Connections.swift`.
///
/// Why suspend/resume: MHD's polling threads only move bytes. A handler that waits seconds for an
/// engine suspends its connection (MHD stops polling it and its timeout stops counting) and
/// frees the thread for every other connection; the task resumes it when the response is ready.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration

    struct State {
        /// Requests between their request line and their completion, by identity; kept so that
        /// shutdown can wait for them and cancel what is left after the deadline.
        var active: [ObjectIdentifier: RequestContext] = [:]
        /// Every admitted connection's phase and deadline.
        var table: ConnectionTable<ContinuousClock.Instant>
        /// Each admitted connection's socket. Only shut down (never closed) here, and only under
        /// this lock, which MHD's close notification also takes before MHD closes the socket:
        /// so a descriptor used here always belongs to the connection it is filed under.
        var sockets: [Int: Int32] = [:]
        /// The request each connection is working on, for cancelling when the client leaves.
        var requests: [Int: RequestContext] = [:]
    }
    let state: Mutex<State>

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        self.configuration = configuration
        self.state = Mutex(State(table: ConnectionTable(limits: configuration.connectionTableLimits)))
    }

    /// Requests received but not yet completed.
    var inFlight: Int { state.withLock { $0.active.count } }

    /// URI callback: a request line arrived. Returns the context MHD stores for the request,
    /// retained once; ``complete(_:)`` balances it.
    func begin(target: [UInt8], connection: OpaquePointer) -> UnsafeMutableRawPointer {
        let handle = ConnectionHandle(pointer: connection)
        let context = RequestContext(connection: handle, target: target)
        let now = ContinuousClock.now
        state.withLock {
            $0.active[ObjectIdentifier(context)] = context
            $0.requests[handle.id] = context
            $0.table.requestLine(handle.id, now: now)
        }
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// Completed callback: MHD is done with the request (sent, failed or timed out).
    func complete(_ raw: UnsafeMutableRawPointer) {
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        context.outcome.withLock { $0.stream }?.close()
        // A handler still running (MHD gave up on the connection) has nobody left to answer.
        context.outcome.withLock { $0.task }?.cancel()
        let id = context.connection.id
        let now = ContinuousClock.now
        state.withLock { s in
            s.active.removeValue(forKey: ObjectIdentifier(context))
            if s.requests[id] === context { s.requests[id] = nil }
            if s.table.requestCompleted(id, now: now), let fd = s.sockets[id] {
                // Draining: this connection is not kept for another request.
                _ = shutdownSocket(fd)
            }
        }
    }

    /// Access handler: called on the connection's I/O thread, first with the headers, then with
    /// each piece of body, then once with nothing left, then again after every resume.
    func access(_ context: RequestContext, connection: OpaquePointer, method: String, version: String,
                upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>) -> MHD_Result {
        switch context.phase {
        case .new:
            context.method = method
            context.phase = .receiving
            let now = ContinuousClock.now
            state.withLock { $0.table.headReceived(context.connection.id, now: now) }
            let fields = Self.fields(of: connection)
            if let rejection = RequestFraming.check(version: version, target: context.target, fields: fields) {
                // Answered here, before any body is read; the connection closes after it.
                return queue(.text(rejection.reason + "\n", status: rejection.status), context: context,
                             connection: connection, close: true)
            }
            (context.headers, context.invalidUTF8) = Self.headers(from: fields)
            context.bodyLimit = configuration.maxBodyBytes(forPath: HTTPRequest.split(target: HTTPRequest.text(ofTarget: context.target).text).path)
            if let declared = context.headers["Content-Length"].flatMap({ Int($0.trimmingCharacters()) }),
               declared > context.bodyLimit {
                context.bodyTooLarge = true
                // A client that waits for 100 Continue, or a body past what is worth reading
                // for a polite answer, is refused now, before MHD reads any of it. Any other
                // client is already sending the body: it is read and dropped, and the 413 follows
                // its end. Closing on a body still arriving would reset the connection under the
                // client's writes, and a proxy (nginx) then reports its own 502 and takes this
                // server out of its rotation instead of passing the 413 on.
                let waits = context.headers["Expect"]?.lowercased().contains("100-continue") == true
                if waits || declared > context.bodyLimit + configuration.maxDiscardedBodyBytes {
                    return dispatch(context, connection: connection)
                }
            }
            return .YES
        case .receiving:
            let size = uploadSize.pointee
            guard size > 0 else { return dispatch(context, connection: connection) }
            uploadSize.pointee = 0
            context.bodyBytesSeen += size
            if !context.bodyTooLarge, context.body.count + size > context.bodyLimit {
                // Counted as it arrives (a chunked upload declares no length): stop keeping it.
                // libmicrohttpd 0.9.75 cannot queue a response while a body is arriving, so the
                // rest is read and dropped and the 413 follows its end (most clients read no
                // answer before they have sent everything anyway); the connection then closes.
                context.bodyTooLarge = true
                context.body = []
            }
            if !context.bodyTooLarge, let upload {
                context.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: size))
            }
            // A body that never ends is not read to its end for the sake of a polite 413.
            return context.bodyBytesSeen > context.bodyLimit + configuration.maxDiscardedBodyBytes ? .NO : .YES
        case .dispatched:
            uploadSize.pointee = 0
            // The first call after the resume: the connection is off MHD's suspended list.
            state.withLock { $0.table.responding(context.connection.id) }
            guard let response = context.outcome.withLock({ $0.response }) else { return .YES }
            return queue(response, context: context, connection: connection, close: context.bodyTooLarge)
        case .responded:
            // Body bytes after an early answer (methods MHD keeps reading for): discard them.
            uploadSize.pointee = 0
            return .YES
        }
    }

    private func dispatch(_ context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        let target = HTTPRequest.text(ofTarget: context.target)
        let (path, query) = HTTPRequest.split(target: target.text)
        let request = HTTPRequest(
            method: context.method, path: path, query: query, headers: context.headers,
            body: context.body,
            bodyStatus: context.bodyTooLarge ? .tooLarge(limit: context.bodyLimit) : .complete,
            clientAddress: Self.clientAddress(of: connection),
            invalidUTF8: (target.valid ? [] : ["request target"]) + context.invalidUTF8)
        context.body = []
        context.phase = .dispatched
        let handle = context.connection
        state.withLock { $0.table.handling(handle.id) }
        // Suspend before the task exists, so its resume always follows this suspend.
        MHD_suspend_connection(connection)
        let handler = self.handler
        let task = Task.detached {
            let response = await handler.handle(request)
            // Shutdown may have answered already for a handler this late; then it resumed too.
            if context.answer(response) { MHD_resume_connection(handle.pointer) }
        }
        var bodiless = request
        bodiless.body = []
        context.adopt(task, for: bodiless)
        return .YES
    }

    /// The peer's numeric address, from the connection's socket address.
    private static func clientAddress(of connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = glossa_mhd_client_address(connection, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The raw header fields of the request on `connection`, in order (I/O thread).
    private static func fields(of connection: OpaquePointer) -> [(name: [UInt8], value: [UInt8])] {
        let collector = FieldCollector()
        // The collector lives through the synchronous iteration; the callback only borrows it.
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
                guard let cls, let key else { return .YES }
                let collector = Unmanaged<FieldCollector>.fromOpaque(cls).takeUnretainedValue()
                let name = Array(UnsafeRawBufferPointer(start: key, count: keySize))
                let bytes = value.map { Array(UnsafeRawBufferPointer(start: $0, count: valueSize)) } ?? []
                collector.fields.append((name, bytes))
                return .YES
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.fields
    }

    /// Header fields as text, and the names of those whose value is not valid UTF-8.
    private static func headers(from fields: [(name: [UInt8], value: [UInt8])]) -> (HTTPHeaders, [String]) {
        var headers = HTTPHeaders()
        var invalid: [String] = []
        for field in fields {
            // Names are tokens (checked by RequestFraming): always ASCII.
            let name = String(decoding: field.name, as: UTF8.self)
            if let value = String(validating: field.value, as: UTF8.self) {
                headers.add(name, value)
            } else {
                headers.add(name, String(decoding: field.value, as: UTF8.self))
                invalid.append("header \(name)")
            }
        }
        return (headers, invalid)
    }
}

/// Gathers header fields during one synchronous MHD iteration.
private final class FieldCollector {
    var fields: [(name: [UInt8], value: [UInt8])] = []
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
