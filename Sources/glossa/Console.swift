import Foundation

/// Writes to stdout and stderr without Swift's `print` buffering surprises: each call writes
/// whole lines with one `write(2)`, so streamed output appears line by line, in order.
enum Console {
    /// Writes `text` plus a newline to stdout.
    static func out(_ text: String) {
        write(1, text + "\n")
    }

    /// Writes `glossa: message` to stderr.
    static func error(_ text: String) {
        write(2, "glossa: \(text)\n")
    }

    /// Whether stderr is a terminal (progress is drawn only there).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Encodes `value` as one line of JSON (keys sorted, so output is stable for tests and diffs).
    static func json(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        out(String(decoding: data, as: UTF8.self))
    }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                // stdout's reader is gone (piped into `head`): stop the command now.
                if fd == 1 && errno == EPIPE { OutputWatch.outputClosed() }
                return
            }
            offset += n
        }
    }
}
