import Foundation
import NeuralCompute
import TranslationCore

/// Dedicated threads that run inference, each with its own `Workspace` (the per-thread replica
/// scratch). BLAS work never runs on Swift's cooperative pool: callers `await run { … }` and
/// are resumed when a worker has finished the job.
final class WorkerPool: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition` (jobs, stopped).
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopped = false
    private var nextJob = 0

    private struct Job {
        let id: Int
        let run: (Workspace) -> Void
        /// Resumes the caller with `.cancelled` instead of running.
        let withdraw: () -> Void
    }

    /// Starts `count` worker threads.
    init(count: Int) {
        for i in 0..<max(1, count) {
            let thread = Thread { [self] in loop() }
            thread.name = "glossa-neural-\(i)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Runs `body` on a worker with that worker's workspace. A caller cancelled while its job
    /// still waits for a worker is withdrawn at once (`.cancelled`); a job already running
    /// finishes (a batch's matrix products cannot stop midway).
    func run<T: Sendable>(_ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
        let id = takeJobID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                condition.lock()
                if stopped || Task.isCancelled {
                    condition.unlock()
                    continuation.resume(throwing: TranslationError(.cancelled, stopped ? "The neural engine is shut down." : "The request was cancelled."))
                    return
                }
                jobs.append(Job(id: id, run: { workspace in
                    do { continuation.resume(returning: try body(workspace)) } catch { continuation.resume(throwing: error) }
                }, withdraw: {
                    continuation.resume(throwing: TranslationError(.cancelled, "The request was cancelled."))
                }))
                condition.signal()
                condition.unlock()
            }
        } onCancel: {
            // Removed under the lock, so a worker can no longer take it: resumed exactly once.
            condition.lock()
            let index = jobs.firstIndex { $0.id == id }
            let job = index.map { jobs.remove(at: $0) }
            condition.unlock()
            job?.withdraw()
        }
    }

    private func takeJobID() -> Int {
        condition.lock()
        defer { condition.unlock() }
        nextJob += 1
        return nextJob
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
            job.run(workspace)
        }
    }
}
