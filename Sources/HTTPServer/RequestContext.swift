import CMicroHTTPD
import Synchronization

/// A libmicrohttpd connection pointer that may cross threads.
///
/// Why `@unchecked Sendable`: MHD documents `MHD_resume_connection` as safe from any thread, and
/// it is the only call made through this handle off the I/O thread, always while the connection
/// is suspended (so MHD cannot free it meanwhile).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Everything the server knows about one request, from its request line to its completion.
///
/// Lifetime: made (+1 retained) in the URI callback, stored in MHD's per-request context pointer,
/// released in the request-completed callback, which MHD calls exactly once per request because
/// the URI callback marks the request as known to the application.
///
/// Threads: the fields marked "I/O thread" are touched only from MHD callbacks for this request,
/// which MHD runs on the one polling thread that owns the connection, never at once. The
/// handler's task touches only ``outcome`` (behind a mutex), and only while the connection is
/// suspended. Hence `@unchecked Sendable`, with the mutable shared part in a `Mutex`.
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

    /// The request target as sent (I/O thread).
    let target: String
    /// The method (I/O thread; set on the first access-handler call).
    var method = ""
    /// The header fields (I/O thread; set on the first access-handler call).
    var headers = HTTPHeaders()
    /// Where the request stands (I/O thread).
    var phase: Phase = .new
    /// The body kept so far (I/O thread).
    var body: [UInt8] = []
    /// Body bytes seen, kept or not (I/O thread).
    var bodyBytesSeen = 0
    /// Whether the body passed the limit (I/O thread).
    var bodyTooLarge = false
    /// The streaming state, when the response is streamed (I/O thread; the stream shares it).
    var stream: StreamingBody?

    /// The handler's response and its task; written by the task, read by the I/O thread.
    let outcome = Mutex<(response: HTTPResponse?, task: Task<Void, Never>?)>((nil, nil))

    init(target: String) { self.target = target }
}
