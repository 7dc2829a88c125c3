import Synchronization

/// Logs the database going down once (not once per refused request) and coming back once.
final class OutageLog: Sendable {
    private let isDown = Mutex(false)

    func down(_ reason: String, log: (String) -> Void) {
        let first = isDown.withLock { down -> Bool in defer { down = true }; return !down }
        if first { log("key store unavailable (requests that need a key get 503 until it is back): \(reason)") }
    }

    func up(log: (String) -> Void) {
        let was = isDown.withLock { down -> Bool in defer { down = false }; return down }
        if was { log("key store available again") }
    }
}
