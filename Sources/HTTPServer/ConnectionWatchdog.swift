import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One thread per server that enforces what libmicrohttpd cannot: the deadlines of
/// ``ConnectionTable`` (a client trickling its request is closed), and noticing a client that
/// leaves while its connection is suspended (MHD does not poll suspended connections, so without
/// this a hung-up client's translation would run to its end for nobody).
///
/// Each round polls the suspended connections' sockets for the peer's end (`POLLRDHUP`, hang-up
/// or error) for up to one tick, then closes what is past its deadline. Why a thread: `poll`
/// blocks, and blocking belongs off Swift's cooperative pool.
///
/// A socket taken from the table may be closed by MHD and its number reused before `poll` runs;
/// that can only make `poll` report on another socket, and every report is checked against the
/// table again (still suspended, not yet cancelled) before anything is cancelled.
final class ConnectionWatchdog: Sendable {
    /// Linux's POLLRDHUP (the peer closed its side), which Glibc's Swift module leaves out
    /// because the C header defines it only under _GNU_SOURCE.
    private let pollPeerClosed: Int16 = 0x2000

    private let core: ServerCore
    private let tick: Duration
    private let stopped = Atomic<Bool>(false)
    private let finished = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let done = Atomic<Bool>(false)

    init(core: ServerCore, tick: Duration = .milliseconds(100)) {
        self.core = core
        self.tick = tick
    }

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) { round() }
            let waiter = finished.withLock { w -> CheckedContinuation<Void, Never>? in
                done.store(true, ordering: .releasing)
                defer { w = nil }
                return w
            }
            waiter?.resume()
        }
        thread.name = "glossa-http-watchdog"
        thread.start()
    }

    /// Stops the thread and waits (at most one tick) until it has.
    func stop() async {
        stopped.store(true, ordering: .releasing)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = finished.withLock { w -> Bool in
                if done.load(ordering: .acquiring) { return false }
                w = continuation
                return true
            }
            if !wait { continuation.resume() }
        }
    }

    private func round() {
        let watched = core.watchedSockets()
        var polled = watched.map { pollfd(fd: $0.fd, events: pollPeerClosed, revents: 0) }
        let milliseconds = Int32(tick.components.seconds * 1000 + tick.components.attoseconds / 1_000_000_000_000_000)
        let ready = polled.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        if ready > 0 {
            let gone = pollPeerClosed | Int16(POLLHUP) | Int16(POLLERR)
            core.clientsLeft(zip(watched, polled).compactMap { $1.revents & gone != 0 ? $0.id : nil })
        }
        core.closeExpired(now: .now)
        // poll returns at once when one socket stays readable-at-end until its handler answers
        // (it is excluded from the next round, but pace the loop anyway).
        if ready > 0 { usleep(10_000) }
    }
}
