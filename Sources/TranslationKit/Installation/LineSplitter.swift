import Foundation
import Synchronization

/// Splits a child process's output into lines for progress reports. The pipe's reader and the
/// termination handler run on different threads, hence the mutex.
final class LineSplitter: Sendable {
    private let pending = Mutex(Data())
    private let emit: @Sendable (PreparationProgress) -> Void

    init(_ emit: @escaping @Sendable (PreparationProgress) -> Void) { self.emit = emit }

    func feed(_ data: Data) {
        guard !data.isEmpty else { return }
        let lines = pending.withLock { buffer -> [String] in
            buffer.append(data)
            var out: [String] = []
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                out.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            return out
        }
        for line in lines where !line.isEmpty { emit(.output(line)) }
    }

    func flush() {
        let rest = pending.withLock { buffer -> Data in
            defer { buffer.removeAll() }
            return buffer
        }
        if !rest.isEmpty { emit(.output(String(decoding: rest, as: UTF8.self))) }
    }
}
