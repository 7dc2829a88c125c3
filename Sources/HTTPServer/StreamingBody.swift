import CMicroHTTPD
import Synchronization

/// The bridge between a response's `AsyncStream` (a producer task) and libmicrohttpd's content
/// reader callback (the connection's I/O thread).
///
/// When the reader finds nothing to send it suspends the connection instead of returning 0 to
/// MHD (which would busy-wait its polling thread); the next push or the end of the stream resumes
/// it. Both sides meet under one mutex, and the reader suspends *inside* it, so a producer that
/// sees `suspended == true` knows the suspension has happened and may resume it.
///
/// Back-pressure: past ``highWater`` unsent bytes the producer waits until the client has taken
/// the buffer down to ``lowWater``, so a slow client cannot make the server hold a whole stream.
final class StreamingBody: Sendable {
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    private struct State {
        var pending: [UInt8] = []
        var offset = 0
        var finished = false
        /// The stream was cut short (cancelled): end the response with an error, not with the
        /// final chunk, so the client cannot take a truncated stream for a whole one.
        var failed = false
        var suspended = false
        /// Suspended by the reader and not yet called back by MHD after the resume.
        var awaitingCallback = false
        /// Set when MHD completed the request: the connection may be gone, never resume it.
        var closed = false
        var producer: Task<Void, Never>?
        /// The producer, waiting for the client to drain the buffer.
        var roomWaiter: CheckedContinuation<Void, Never>?
    }

    private let connection: ConnectionHandle
    private let state = Mutex(State())
    /// Told when the reader suspends the connection and when MHD calls it again after the
    /// resume (the connection is then off MHD's suspended list): ``ServerCore`` counts suspended
    /// connections, since MHD must never be stopped with one.
    private let onSuspend: @Sendable () -> Void
    private let onResumed: @Sendable () -> Void

    init(connection: ConnectionHandle, onSuspend: @escaping @Sendable () -> Void, onResumed: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.onSuspend = onSuspend
        self.onResumed = onResumed
    }

    /// Starts copying `stream` into the buffer on a task of its own.
    func start(_ stream: AsyncStream<[UInt8]>) {
        let task = Task.detached { [self] in
            for await chunk in stream where !chunk.isEmpty {
                self.update { $0.pending += chunk }
                await self.waitForRoom()
            }
            let cut = Task.isCancelled
            self.update { $0.finished = true; $0.failed = $0.failed || cut }
        }
        state.withLock { $0.producer = task }
    }

    /// Copies up to `max` pending bytes into `buffer` (I/O thread). Returns the count, -1 at the
    /// end of the stream, -2 when it was cut short, or 0 after suspending the connection until
    /// more arrives.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { s in
            if s.awaitingCallback {
                s.awaitingCallback = false
                onResumed()
            }
            if s.failed { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
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
                if s.pending.count - s.offset <= Self.lowWater, let waiter = s.roomWaiter {
                    s.roomWaiter = nil
                    waiter.resume()
                }
                return n
            }
            if s.finished { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            s.suspended = true
            s.awaitingCallback = true
            onSuspend()
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// MHD completed the request (I/O thread): stop the producer, never touch the connection again.
    func close() {
        let (producer, waiter) = state.withLock { s -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            s.closed = true
            defer { s.roomWaiter = nil }
            return (s.producer, s.roomWaiter)
        }
        producer?.cancel()
        waiter?.resume()
    }

    /// Ends the response with an error now, without waiting for the producer (shutdown, for a
    /// producer that ignores cancellation): resumes the connection if it waits for bytes.
    func abort() {
        cancel()
        update { $0.failed = true; $0.finished = true }
    }

    /// Cancels the producer (the client left, or shutdown past its deadline); the stream then
    /// ends with an error and resumes.
    func cancel() {
        let (producer, waiter) = state.withLock { s -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            defer { s.roomWaiter = nil }
            return (s.producer, s.roomWaiter)
        }
        producer?.cancel()
        waiter?.resume()
    }

    /// Suspends the producer while more than ``highWater`` bytes wait to be sent (and the
    /// connection is still open); the reader or ``close()`` resumes it.
    private func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { s -> Bool in
                guard !s.closed, s.pending.count - s.offset > Self.highWater else { return false }
                s.roomWaiter = continuation
                return true
            }
            if !wait { continuation.resume() }
        }
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
