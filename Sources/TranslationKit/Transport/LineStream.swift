import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// An HTTP answer read line by line as it arrives, for newline-delimited JSON over chunked
/// transfer encoding.
///
/// Why a delegate: swift-corelibs-foundation has no `URLSession.bytes(for:)`, and
/// `data(for:)` waits for the whole body. A `URLSessionDataDelegate` gets each chunk as curl
/// reads it (checked on Linux: lines arrive one by one while the server is still writing).
enum LineStream {
    /// One event of the answer.
    enum Event: Sendable {
        /// The status line and headers arrived.
        case status(Int)
        /// One line of the body, without its newline.
        case line(Data)
    }

    /// Sends `request` and yields its status, then each body line. Ending the iteration (or
    /// cancelling the consuming task) cancels the HTTP request, which closes the connection:
    /// that is how the server learns to stop.
    static func open(_ request: URLRequest) -> AsyncThrowingStream<Event, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        let delegate = Delegate(continuation)
        // One session per stream: the delegate belongs to the session, which keeps it alive
        // until `finishTasksAndInvalidate` (called when the task completes) lets both go.
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        task.resume()
        return stream
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private let continuation: AsyncThrowingStream<Event, any Error>.Continuation
        /// Bytes after the last newline seen. Delegate callbacks come one at a time on the
        /// session's queue; the mutex makes that ordering explicit rather than assumed.
        private let pending = Mutex(Data())

        init(_ continuation: AsyncThrowingStream<Event, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            continuation.yield(.status((response as? HTTPURLResponse)?.statusCode ?? 0))
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let lines = pending.withLock { buffer -> [Data] in
                buffer.append(data)
                var out: [Data] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    out.append(Data(buffer[buffer.startIndex..<newline]))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return out
            }
            for line in lines { continuation.yield(.line(line)) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            // A last line without a newline is still a line.
            let rest = pending.withLock { buffer -> Data in
                defer { buffer.removeAll() }
                return buffer
            }
            if !rest.isEmpty { continuation.yield(.line(rest)) }
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            session.finishTasksAndInvalidate()
        }
    }
}
