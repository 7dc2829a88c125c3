import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waiting for SIGTERM or SIGINT, for graceful shutdown.
public enum TerminationSignal {
    /// Suspends until the process receives SIGTERM or SIGINT and returns the signal number.
    /// The signals' default action (exit at once) is disabled first, so in-flight work can finish.
    public static func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let once = OnceFlag()
            let queue = DispatchQueue(label: "glossa.signals")
            var sources: [any DispatchSourceSignal] = []
            for number in [SIGTERM, SIGINT] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    if once.claim() { continuation.resume(returning: number) }
                }
                source.resume()
                sources.append(source)
            }
            // The sources must outlive this closure; they live for the rest of the process.
            SignalSources.keep(sources)
        }
    }
}

/// Resumes a continuation only once even if both signals arrive.
private final class OnceFlag: @unchecked Sendable {
    // Why unchecked: touched only on the single serial signal queue.
    private var done = false
    func claim() -> Bool {
        if done { return false }
        done = true
        return true
    }
}

private enum SignalSources {
    nonisolated(unsafe) static var kept: [any DispatchSourceSignal] = []
    static func keep(_ sources: [any DispatchSourceSignal]) { kept += sources }
}
