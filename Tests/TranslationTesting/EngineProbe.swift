import Synchronization
import TranslationCore

/// What a ``FakeEngine`` saw, and the gates its texts wait at, shared between the engine and the test.
public final class EngineProbe: Sendable {
    private struct State {
        var received: [String] = []
        var started = 0
    }
    // Why a lock: the engine is a value copied into the service, which calls it from many tasks.
    private let state = Mutex(State())
    /// Texts containing `SLOW` wait for this gate.
    public let slowGate = Gate()
    /// Texts containing `HOLD` wait for this gate (a cancellation test's tail).
    public let holdGate = Gate()

    /// Makes an empty probe.
    public init() {}

    /// Every text the engine was sent, in order, recorded as each call arrives.
    public var received: [String] { state.withLock { $0.received } }
    /// Texts the engine started translating (one by one, so gated texts show how far a call got).
    public var started: Int { state.withLock { $0.started } }
    func receive(_ texts: [String]) { state.withLock { $0.received += texts } }
    func start() { state.withLock { $0.started += 1 } }
}

/// The pairs one ``FakeEngine`` serves now: the list shrinks as pairs that fail on first use are used.
final class ServedPairs: Sendable {
    private struct State {
        var served: [LanguagePair]
        var failingOnFirstUse: Set<LanguagePair>
        var unavailable: [LanguagePair: String] = [:]
    }
    // Why a lock: the engine is a value copied into the service, which calls it from many tasks.
    private let state: Mutex<State>

    init(_ served: [LanguagePair], failingOnFirstUse: [LanguagePair]) {
        state = Mutex(State(served: served, failingOnFirstUse: Set(failingOnFirstUse)))
    }

    var served: [LanguagePair] { state.withLock { $0.served } }
    var unavailable: [LanguagePair: String] { state.withLock { $0.unavailable } }

    /// Refuses a pair not served; a pair failing on first use leaves the list here.
    func use(_ pair: LanguagePair) throws {
        try state.withLock { s in
            if s.failingOnFirstUse.contains(pair) {
                s.served.removeAll { $0 == pair }
                s.unavailable[pair] = "its probe failed"
                throw TranslationError(.unsupportedPair, "\(pair) does not work here: its probe failed")
            }
            guard s.served.contains(pair) else { throw TranslationError(.unsupportedPair, "fake does not serve \(pair)") }
        }
    }
}
