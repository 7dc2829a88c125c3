import Synchronization

/// A latch tests open by hand. Waiting is cancellation-aware (a cancelled waiter returns at
/// once with `false`), and has a long fallback so a broken implementation fails a test instead
/// of hanging it: `timedOut` then records that the gate was never opened.
public final class Gate: Sendable {
    /// Makes a closed gate.
    public init() {}

    private struct State {
        var open = false
        var timedOut = false
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextID = 0
    }
    private let state = Mutex(State())

    /// Whether some waiter gave up after the fallback delay.
    public var timedOut: Bool { state.withLock { $0.timedOut } }

    /// Opens the gate: every waiter, present and future, goes on.
    public func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Bool, Never>] in
            s.open = true
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Texts waiting at the gate now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Lets one waiter through (the oldest), leaving the gate closed; false if none waits.
    @discardableResult
    public func releaseOne() -> Bool {
        let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            guard let id = s.waiters.keys.min() else { return nil }
            return s.waiters.removeValue(forKey: id)
        }
        waiter?.resume(returning: true)
        return waiter != nil
    }

    /// Waits until the gate opens (true), the task is cancelled (false), or `fallback` seconds pass.
    public func wait(fallback: Double = 20) async -> Bool {
        let id = state.withLock { s -> Int in s.nextID += 1; return s.nextID }
        let timer = Task { [self] in
            try? await Task.sleep(for: .seconds(fallback))
            if !Task.isCancelled { finish(id, result: true, timedOut: true) }
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { s -> Bool in
                    if s.open || Task.isCancelled { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume(returning: state.withLock { $0.open }) }
            }
        } onCancel: {
            finish(id, result: false, timedOut: false)
        }
    }

    private func finish(_ id: Int, result: Bool, timedOut: Bool) {
        let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            if timedOut { s.timedOut = true }
            return s.waiters.removeValue(forKey: id)
        }
        waiter?.resume(returning: result)
    }
}
