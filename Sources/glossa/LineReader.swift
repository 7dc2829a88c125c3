import Foundation

/// Reads standard input as batches of lines on a dedicated thread, so a blocking `read(2)` never
/// holds one of Swift's cooperative threads.
///
/// Batching follows the input: every complete line already read is handed over at once (a file
/// gives large batches, so translation keeps the pipelines busy), while a person typing gets each
/// line translated as soon as it is entered. Lines are validated as UTF-8 here so an error can
/// name the line.
enum LineReader {
    /// One batch: complete lines, or the number (1-based) of the first invalid line.
    enum Batch: Sendable {
        case lines([String])
        case invalidUTF8(line: Int)
    }

    /// Most lines in one batch; bounds memory and the latency of the first output. Large, because
    /// each batch is one pipeline request and a pipeline drains between requests.
    static let maxBatch = 4096

    /// Starts reading `fd` and returns the batches as they are read. The stream ends at EOF.
    static func batches(fd: Int32 = 0) -> AsyncStream<Batch> {
        let (stream, continuation) = AsyncStream<Batch>.makeStream(bufferingPolicy: .bufferingOldest(4))
        let thread = Thread {
            readLoop(fd: fd, continuation: continuation)
        }
        thread.name = "glossa-stdin"
        thread.start()
        return stream
    }

    private static func readLoop(fd: Int32, continuation: AsyncStream<Batch>.Continuation) {
        var pending: [UInt8] = []
        var lineNumber = 1
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var eof = false
        while !eof {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { eof = true } else { pending.append(contentsOf: chunk[0..<n]) }
            var lines: [String] = []
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) ?? (eof && start < pending.count ? pending.count : nil) {
                var end = newline
                if end > start, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                guard let line = String(validating: pending[start..<end], as: UTF8.self) else {
                    if !lines.isEmpty { send(.lines(lines), continuation) }
                    send(.invalidUTF8(line: lineNumber), continuation)
                    continuation.finish()
                    return
                }
                lines.append(line)
                lineNumber += 1
                start = min(newline + 1, pending.count)
                if lines.count == maxBatch {
                    send(.lines(lines), continuation)
                    lines.removeAll(keepingCapacity: true)
                }
            }
            pending.removeFirst(start)
            if !lines.isEmpty { send(.lines(lines), continuation) }
        }
        continuation.finish()
    }

    /// Hands a batch over, waiting while the consumer is behind: back-pressure keeps a huge file
    /// from being read into memory faster than it is translated.
    private static func send(_ batch: Batch, _ continuation: AsyncStream<Batch>.Continuation) {
        while true {
            switch continuation.yield(batch) {
            case .enqueued, .terminated: return
            case .dropped: usleep(500)
            @unknown default: return
            }
        }
    }
}
