import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Many connections that send a request one byte at a time (a "slowloris" attack), all driven by
/// one thread, for tests of deadlines and connection limits. Loopback only; stops by itself.
public final class SlowClients: Sendable {
    private struct State {
        var sockets: [Int32] = []
        /// Sockets the server closed (a send failed or a read saw the end).
        var closed: Set<Int32> = []
        var stop = false
    }
    private let state = Mutex(State())
    private let done = Atomic<Bool>(false)

    /// Opens `count` connections to 127.0.0.1:`port` and starts trickling `request`, one byte per
    /// connection every `interval`, until ``stop()`` or `duration` passes.
    public init(port: Int, count: Int, request: [UInt8], interval: Duration = .milliseconds(250),
                duration: Duration = .seconds(60)) {
        var sockets: [Int32] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if connected == 0 { sockets.append(fd) } else { close(fd) }
        }
        state.withLock { $0.sockets = sockets }
        let deadline = ContinuousClock.now + duration
        let thread = Thread { [self] in
            var position = 0
            while ContinuousClock.now < deadline, !state.withLock({ $0.stop }) {
                let open = state.withLock { s in s.sockets.filter { !s.closed.contains($0) } }
                var gone: [Int32] = []
                for fd in open {
                    var probe: UInt8 = 0
                    let n = recv(fd, &probe, 1, Int32(MSG_DONTWAIT))
                    if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { gone.append(fd); continue }
                    if position < request.count {
                        let byte = request[position]
                        let sent = withUnsafeBytes(of: byte) { send(fd, $0.baseAddress, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                        if sent < 0 && errno != EAGAIN { gone.append(fd) }
                    }
                }
                state.withLock { $0.closed.formUnion(gone) }
                position += 1
                let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
                usleep(UInt32(nanoseconds / 1000))
            }
            let sockets = state.withLock { $0.sockets }
            for fd in sockets { close(fd) }
            done.store(true, ordering: .releasing)
        }
        thread.start()
    }

    /// Connections opened.
    public var opened: Int { state.withLock { $0.sockets.count } }

    /// Connections the server has closed so far.
    public var closedByServer: Int { state.withLock { $0.closed.count } }

    /// Stops trickling and closes every connection; returns when done.
    public func stop() async {
        state.withLock { $0.stop = true }
        while !done.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(20)) }
    }
}
