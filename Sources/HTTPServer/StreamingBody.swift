import CMicroHTTPD
import Synchronization

/// The bridge between a response's `AsyncStream` (a producer task) and libmicrohttpd's content
/// reader callback (the connection's I/O thread).
///
/// When the reader finds nothing to send it suspends the connection instead of returning 0 to
/// MHD (which would busy-wait its polling thread); the next push or the end of the stream resumes
/// it. Both sides meet under one mutex, and the reader suspends *inside* it, so a producer that
/// sees `suspended == true` knows the suspension has happened and may resume it.
final class StreamingBody: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var offset = 0
        var finished = false
        var suspended = false
        /// Set when MHD completed the request: the connection may be gone, never resume it.
        var closed = false
        var producer: Task<Void, Never>?
    }

    private let connection: ConnectionHandle
    private let state = Mutex(State())

    init(connection: ConnectionHandle) { self.connection = connection }

    /// Starts copying `stream` into the buffer on a task of its own.
    func start(_ stream: AsyncStream<[UInt8]>) {
        let task = Task.detached { [self] in
            for await chunk in stream where !chunk.isEmpty {
                self.update { $0.pending += chunk }
            }
            self.update { $0.finished = true }
        }
        state.withLock { $0.producer = task }
    }

    /// Copies up to `max` pending bytes into `buffer` (I/O thread). Returns the count, -1 at the
    /// end of the stream, or 0 after suspending the connection until more arrives.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { s in
            let available = s.pending.count - s.offset
            if available > 0 {
                let n = Swift.min(available, max)
                s.pending.withUnsafeBufferPointer { source in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + s.offset, byteCount: n)
                }
                s.offset += n
                if s.offset == s.pending.count {
                    s.pending.removeAll(keepingCapacity: true)
                    s.offset = 0
                }
                return n
            }
            if s.finished { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            s.suspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// MHD completed the request (I/O thread): stop the producer, never touch the connection again.
    func close() {
        let producer = state.withLock { s -> Task<Void, Never>? in
            s.closed = true
            return s.producer
        }
        producer?.cancel()
    }

    /// Cancels the producer (shutdown past its deadline); the stream then ends and resumes.
    func cancel() {
        state.withLock { $0.producer }?.cancel()
    }

    private func update(_ change: (inout State) -> Void) {
        let resume = state.withLock { s -> Bool in
            change(&s)
            guard s.suspended, !s.closed else { return false }
            s.suspended = false
            return true
        }
        // Outside the lock: MHD takes its own mutex, and the reader holds ours while suspending.
        if resume { MHD_resume_connection(connection.pointer) }
    }
}
