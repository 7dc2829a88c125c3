import CMicroHTTPD
import CMicroHTTPDShim
import Synchronization

/// The Swift side of the daemon: turns MHD's callbacks into ``HTTPRequest``s, runs the handler on
/// a task while the connection is suspended, and queues its ``HTTPResponse``.
///
/// Why suspend/resume: MHD's polling threads only move bytes. A handler that waits seconds for an
/// engine suspends its connection (MHD stops polling it and its timeout stops counting) and
/// frees the thread for every other connection; the task resumes it when the response is ready.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration

    private struct State {
        /// Requests between their request line and their completion, by identity; kept so that
        /// shutdown can wait for them and cancel what is left after the deadline.
        var active: [ObjectIdentifier: RequestContext] = [:]
    }
    private let state = Mutex(State())

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        self.configuration = configuration
    }

    /// Requests received but not yet completed.
    var inFlight: Int { state.withLock { $0.active.count } }

    /// URI callback: a request line arrived. Returns the context MHD stores for the request,
    /// retained once; ``complete(_:)`` balances it.
    func begin(target: String) -> UnsafeMutableRawPointer {
        let context = RequestContext(target: target)
        state.withLock { $0.active[ObjectIdentifier(context)] = context }
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// Completed callback: MHD is done with the request (sent, failed or timed out).
    func complete(_ raw: UnsafeMutableRawPointer) {
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        context.outcome.withLock { $0.stream }?.close()
        _ = state.withLock { $0.active.removeValue(forKey: ObjectIdentifier(context)) }
    }

    /// Shutdown past its deadline: cancels every handler task and stream still running, so each
    /// produces its response and resumes its connection.
    func cancelAll() {
        let contexts = state.withLock { Array($0.active.values) }
        for context in contexts {
            let (task, stream) = context.outcome.withLock { ($0.task, $0.stream) }
            task?.cancel()
            stream?.cancel()
        }
    }

    /// Access handler: called on the connection's I/O thread, first with the headers, then with
    /// each piece of body, then once with nothing left, then again after every resume.
    func access(_ context: RequestContext, connection: OpaquePointer, method: String,
                upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>) -> MHD_Result {
        switch context.phase {
        case .new:
            context.method = method
            context.headers = Self.headers(of: connection)
            context.phase = .receiving
            // Refuse a declared oversize body now, before MHD reads (or 100-continues) any of it.
            if let declared = context.headers["Content-Length"].flatMap({ Int($0.trimmingCharacters()) }),
               declared > configuration.maxBodyBytes {
                context.bodyTooLarge = true
                return dispatch(context, connection: connection)
            }
            return .YES
        case .receiving:
            let size = uploadSize.pointee
            guard size > 0 else { return dispatch(context, connection: connection) }
            context.bodyBytesSeen += size
            if !context.bodyTooLarge, context.body.count + size > configuration.maxBodyBytes {
                // Counted as it arrives (chunked uploads declare no length): stop keeping it.
                context.bodyTooLarge = true
                context.body = []
            }
            if !context.bodyTooLarge, let upload {
                context.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: size))
            }
            uploadSize.pointee = 0
            // A body that never ends is not read to its end for the sake of a polite 413.
            return context.bodyBytesSeen > configuration.maxBodyBytes + configuration.maxDiscardedBodyBytes ? .NO : .YES
        case .dispatched:
            uploadSize.pointee = 0
            guard let response = context.outcome.withLock({ $0.response }) else { return .YES }
            return queue(response, context: context, connection: connection)
        case .responded:
            // Body bytes after an early answer (methods MHD keeps reading for): discard them.
            uploadSize.pointee = 0
            return .YES
        }
    }

    private func dispatch(_ context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        let (path, query) = HTTPRequest.split(target: context.target)
        let request = HTTPRequest(
            method: context.method, path: path, query: query, headers: context.headers,
            body: context.body,
            bodyStatus: context.bodyTooLarge ? .tooLarge(limit: configuration.maxBodyBytes) : .complete,
            clientAddress: Self.clientAddress(of: connection))
        context.body = []
        context.phase = .dispatched
        let handle = ConnectionHandle(pointer: connection)
        // Suspend before the task exists, so its resume always follows this suspend.
        MHD_suspend_connection(connection)
        let handler = self.handler
        let task = Task.detached {
            let response = await handler.handle(request)
            context.outcome.withLock { $0.response = response }
            MHD_resume_connection(handle.pointer)
        }
        context.outcome.withLock { $0.task = task }
        return .YES
    }

    private func queue(_ response: HTTPResponse, context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        context.phase = .responded
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes {
                MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            let body = StreamingBody(connection: ConnectionHandle(pointer: connection))
            context.outcome.withLock { $0.stream = body }
            // The reader's context is retained once here and released by MHD's free callback.
            made = MHD_create_response_from_callback(
                UInt64.max /* MHD_SIZE_UNKNOWN: chunked */, 16 * 1024, streamReader,
                Unmanaged.passRetained(body).toOpaque(), streamFree)
            if made != nil { body.start(stream) }
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers {
            let lower = name.lowercased()
            if lower == "content-length" || lower == "transfer-encoding" { continue }
            _ = MHD_add_response_header(made, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    /// The peer's numeric address, from the connection's socket address.
    private static func clientAddress(of connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = glossa_mhd_client_address(connection, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        let collector = HeaderCollector()
        // The collector lives through the synchronous iteration; the callback only borrows it.
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return .YES }
                let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
                collector.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                return .YES
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.headers
    }
}

/// Gathers header fields during one synchronous MHD iteration.
private final class HeaderCollector {
    var headers = HTTPHeaders()
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

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
