import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT, for graceful shutdown.
public enum TerminationSignal {
    /// Every SIGTERM or SIGINT the process receives from now on, as its signal number. The
    /// signals' default action (exit at once) is disabled first, so in-flight work can finish.
    /// The first one asks for a graceful stop; a second one (a second Ctrl-C) for a quick one.
    public static func signals() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "glossa.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        // The sources must outlive this call; they live for the rest of the process.
        SignalSources.keep(sources)
        return stream
    }

    /// Suspends until the process receives SIGTERM or SIGINT and returns the signal number.
    public static func wait() async -> Int32 {
        for await number in signals() { return number }
        return SIGTERM
    }
}

private enum SignalSources {
    nonisolated(unsafe) static var kept: [any DispatchSourceSignal] = []
    static func keep(_ sources: [any DispatchSourceSignal]) { kept += sources }
}
