import CBLAS
import Foundation
import TranslationCore

/// Dedicated threads that run inference, each with its own `Workspace` (the per-thread replica
/// scratch). BLAS work never runs on Swift's cooperative pool: callers `await run { … }` and
/// are resumed when a worker has finished the job.
final class WorkerPool: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition` (jobs, stopped).
    private let condition = NSCondition()
    private var jobs: [(Workspace) -> Void] = []
    private var stopped = false

    /// Starts `count` worker threads. OpenBLAS runs each GEMM on `blasThreads` threads
    /// (a process-wide OpenBLAS setting, so the last pool started decides it).
    init(count: Int, blasThreads: Int) {
        openblas_set_num_threads(Int32(max(1, blasThreads)))
        for i in 0..<max(1, count) {
            let thread = Thread { [self] in loop() }
            thread.name = "glossa-neural-\(i)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Runs `body` on a worker with that worker's workspace.
    func run<T: Sendable>(_ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            condition.lock()
            if stopped {
                condition.unlock()
                continuation.resume(throwing: TranslationError(.cancelled, "The neural engine is shut down."))
                return
            }
            jobs.append { workspace in
                do { continuation.resume(returning: try body(workspace)) } catch { continuation.resume(throwing: error) }
            }
            condition.signal()
            condition.unlock()
        }
    }

    /// Stops the workers after the queued jobs.
    func shutdown() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        let workspace = Workspace()
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job(workspace)
        }
    }
}
