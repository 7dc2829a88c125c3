import Foundation
import Synchronization
import TranslationService

/// Probing every pair before listing or serving, with a word on stderr while it runs.
enum Probing {
    /// Probes every engine's pairs (only those not probed before: verdicts are cached), saying on
    /// stderr what it does when there is anything to probe; returns when done.
    static func run(_ service: TranslationService) async {
        let report = Report()
        await service.probe { engine, checked, total in report.progress(engine, checked, total) }
        let unavailable = await service.unavailablePairs()
        report.finish(unavailable: unavailable.count)
    }

    /// What the user is told: once when probing starts, once when it ends.
    private final class Report: Sendable {
        private let state = Mutex((total: 0, started: ContinuousClock.now))

        func progress(_ engine: String, _ checked: Int, _ total: Int) {
            guard checked == 0, total > 0 else { return }
            state.withLock { $0.total += total }
            Console.error("checking \(total) \(engine) pairs that were not checked before (each translates a test sentence)…")
        }

        func finish(unavailable: Int) {
            let (total, started) = state.withLock { ($0.total, $0.started) }
            guard total > 0 else { return }
            let seconds = Double((ContinuousClock.now - started).components.seconds)
            Console.error("checked \(total) pairs in \(Int(seconds)) s; \(unavailable) installed pairs do not work here (`glossa pairs` and /glossa/v1/health say why)")
        }
    }
}
