import CMicroHTTPD
import Synchronization

/// A libmicrohttpd connection pointer that may cross threads.
///
/// Why `@unchecked Sendable`: MHD documents `MHD_resume_connection` as safe from any thread, and
/// it is the only call made through this handle off the I/O thread, always while the connection
/// is suspended (so MHD cannot free it meanwhile).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The identity ``ConnectionTable`` knows the connection by: its address, unique while the
    /// connection is open (the table forgets it in MHD's close notification, before it is freed).
    var id: Int { Int(bitPattern: UnsafeRawPointer(pointer)) }
}

/// Everything the server knows about one request, from its request line to its completion.
///
/// Lifetime: made (+1 retained) in the URI callback, stored in MHD's per-request context pointer,
/// released in the request-completed callback, which MHD calls exactly once per request because
/// the URI callback marks the request as known to the application.
///
/// Threads: the fields marked "I/O thread" are touched only from MHD callbacks for this request,
/// which MHD runs on the one polling thread that owns the connection, never at once. The
/// handler's task, the watchdog and shutdown touch only ``outcome`` (behind a mutex). Hence
/// `@unchecked Sendable`, with the mutable shared part in a `Mutex`.
final class RequestContext: @unchecked Sendable {
    enum Phase {
        /// Headers are parsed; the access handler has not been called yet.
        case new
        /// Body bytes are arriving.
        case receiving
        /// The handler is running; the connection is suspended until it resumes it.
        case dispatched
        /// A response was queued; anything still arriving is discarded.
        case responded
    }

    /// The connection the request came on.
    let connection: ConnectionHandle
    /// The request target as sent, raw bytes (I/O thread).
    let target: [UInt8]
    /// The method (I/O thread; set on the first access-handler call).
    var method = ""
    /// The header fields (I/O thread; set on the first access-handler call).
    var headers = HTTPHeaders()
    /// Parts that are not valid UTF-8 (I/O thread).
    var invalidUTF8: [String] = []
    /// Where the request stands (I/O thread).
    var phase: Phase = .new
    /// The body kept so far (I/O thread).
    var body: [UInt8] = []
    /// Body bytes seen, kept or not (I/O thread).
    var bodyBytesSeen = 0
    /// Whether the body passed the limit (I/O thread).
    var bodyTooLarge = false
    /// The largest body this request may have (``HTTPServerConfiguration/maxBodyBytes(forPath:)``).
    var bodyLimit = 0

    /// What crosses threads: the handler's task and response (written by the task or by shutdown,
    /// read by the I/O thread) and the streaming state (written by the I/O thread, cancelled by
    /// the watchdog or shutdown).
    struct Outcome {
        /// Set once, by whoever answers first (the handler, or shutdown answering for a handler
        /// that ignored cancellation); that one also resumes the connection, exactly once.
        var response: HTTPResponse?
        var task: Task<Void, Never>?
        var stream: StreamingBody?
        /// The request as handed to the handler, without its body: what shutdown needs to answer
        /// for a handler that ignored cancellation (in the request's protocol).
        var request: HTTPRequest?
        /// The client went away while the request was suspended; its work was cancelled.
        var clientLeft = false
        /// ``cancelWork()`` was called: a task or stream stored later is cancelled as it is
        /// stored (the watchdog may see a hang-up before the I/O thread has stored the task).
        var workCancelled = false
    }

    /// The shared part, behind a mutex.
    let outcome = Mutex(Outcome())

    init(connection: ConnectionHandle, target: [UInt8]) {
        self.connection = connection
        self.target = target
    }

    /// Stores `response` unless one is already there; returns whether it was stored (the caller
    /// then resumes the connection).
    func answer(_ response: HTTPResponse) -> Bool {
        outcome.withLock { o in
            guard o.response == nil else { return false }
            o.response = response
            return true
        }
    }

    /// Cancels the handler's task and the response stream, now or as soon as they are stored.
    func cancelWork() {
        let (task, stream) = outcome.withLock { o in
            o.workCancelled = true
            return (o.task, o.stream)
        }
        task?.cancel()
        stream?.cancel()
    }

    /// Keeps the handler's task (and the request without its body); cancels the task at once
    /// when ``cancelWork()`` came first.
    func adopt(_ task: Task<Void, Never>, for request: HTTPRequest) {
        let cancelled = outcome.withLock { o in
            o.task = task
            o.request = request
            return o.workCancelled
        }
        if cancelled { task.cancel() }
    }

    /// Keeps the response stream; returns whether ``cancelWork()`` came first (the caller then
    /// cancels the stream once it has started it).
    func adopt(_ stream: StreamingBody) -> Bool {
        outcome.withLock { o in
            o.stream = stream
            return o.workCancelled
        }
    }
}
