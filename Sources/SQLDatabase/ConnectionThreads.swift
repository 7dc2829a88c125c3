import Foundation

/// Dedicated threads, each owning one connection: SQLite and libpq calls block (on a file lock,
/// on the network), so they never run on Swift's cooperative pool. Callers `await run { … }` and
/// are resumed when a thread has run the job on its connection.
///
/// A thread opens its connection on first use and reopens it after the connection broke, so a
/// database that was down at start, or restarted since, is picked up again without a restart.
final class ConnectionThreads: @unchecked Sendable {
    // @unchecked: `jobs` and `stopped` are guarded by `condition`; each connection is touched
    // only by the thread that owns it (inside `loop`).
    private let condition = NSCondition()
    private var jobs: [(inout (any SQLConnection)?) -> Void] = []
    private var stopped = false
    private var running: Int
    private let open: @Sendable () throws -> any SQLConnection

    /// Starts `count` threads named `name-0`, `name-1`, …; `open` makes a connection.
    init(count: Int, name: String, open: @escaping @Sendable () throws -> any SQLConnection) {
        self.open = open
        running = max(1, count)
        for i in 0..<max(1, count) {
            let thread = Thread { [self] in loop() }
            thread.name = "\(name)-\(i)"
            thread.start()
        }
    }

    /// Runs `body` on a thread with that thread's connection (opened first when needed).
    func run<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            condition.lock()
            defer { condition.unlock() }
            guard !stopped else {
                continuation.resume(throwing: DatabaseError(.unavailable, "The database connections are closed."))
                return
            }
            jobs.append { [open] connection in
                do {
                    if connection == nil { connection = try open() }
                    let result = try body(connection!)
                    continuation.resume(returning: result)
                } catch {
                    if let open = connection, !open.isUsable {
                        open.close()
                        connection = nil
                    }
                    continuation.resume(throwing: error)
                }
            }
            condition.signal()
        }
    }

    /// Runs the queued jobs, then closes every connection and ends the threads; waits for them.
    func shutdown() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        var connection: (any SQLConnection)?
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                connection?.close()
                condition.lock()
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job(&connection)
        }
    }
}
