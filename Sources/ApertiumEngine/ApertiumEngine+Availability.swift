import Foundation
import TranslationCore

extension ApertiumEngine {
    /// Installed pairs that do not work on this machine, each with the reason: a file or program
    /// their mode needs is missing, or their probe failed (see ``PairProbe``).
    ///
    /// (Nonisolated and async, exactly as the protocol requires: an isolated witness would lose to
    /// the protocol's default implementation, which answers "none".)
    public nonisolated func unavailablePairs() async -> [LanguagePair: String] {
        await isolatedUnavailable()
    }

    private func isolatedUnavailable() -> [LanguagePair: String] { availability.unavailable }

    /// Probes each of `pairs` (every installed one when nil) that is not yet known to work or
    /// not to work, a few at a time (one per core); verdicts are kept in the probe cache, so a
    /// later run only probes what changed. `progress` gets (finished, total).
    public nonisolated func probe(_ pairs: [LanguagePair]?, progress: @escaping @Sendable (Int, Int) -> Void) async {
        await probeIsolated(pairs, progress: progress)
    }

    public nonisolated func pairsToProbe(_ pairs: [LanguagePair]?) async -> Int {
        await unprobed(pairs).count
    }

    /// Those of `pairs` (every installed one when nil) not yet known to work or not to work.
    private func unprobed(_ pairs: [LanguagePair]?) -> [LanguagePair] {
        (pairs ?? installedModes.map(\.pair)).filter { availability.needsProbe($0) && modes[$0] != nil }
    }

    private func probeIsolated(_ pairs: [LanguagePair]?, progress: @escaping @Sendable (Int, Int) -> Void) async {
        let wanted = unprobed(pairs)
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var finished = 0
        progress(0, wanted.count)
        await withTaskGroup(of: Void.self) { group in
            var queue = wanted.makeIterator()
            for _ in 0..<width {
                guard let pair = queue.next() else { break }
                group.addTask { _ = await self.verdict(for: pair) }
            }
            for await _ in group {
                finished += 1
                progress(finished, wanted.count)
                if let pair = queue.next() { group.addTask { _ = await self.verdict(for: pair) } }
            }
        }
    }

    /// Throws at once when `pair` is known not to work; probes it first when it is not known yet.
    /// - Throws: ``TranslationError`` `.unsupportedPair`, naming the reason.
    func ensureWorks(_ pair: LanguagePair) async throws {
        guard let reason = await verdict(for: pair) else { return }
        throw TranslationError(.unsupportedPair,
            "The Apertium pair \(modes[pair]?.name ?? pair.apertiumName) is installed but does not work on this machine: \(reason).")
    }

    /// Why `pair` does not work, or nil; probes it once (concurrent callers share the probe).
    private func verdict(for pair: LanguagePair) async -> String? {
        if let reason = availability.unavailable[pair] { return reason }
        if availability.verified.contains(pair) { return nil }
        guard let mode = modes[pair] else { return "it is not installed" }
        if let running = availability.probing[pair] { return await running.value }
        let probe = PairProbe(loadTimeout: configuration.requestTimeout, answerTimeout: configuration.probeTimeout)
        // The pipeline the pools run by default: no marks, the resetting tagger when there is one.
        let tagger = configuration.resettingTagger
        let task = Task {
            await probe.run(mode) { stderr in try ApertiumPipeline.start(mode: mode, markUnknownWords: false, tagger: tagger, stderr: stderr) }
        }
        availability.probing[pair] = task
        let failure = await task.value
        availability.probing[pair] = nil
        if let failure {
            availability.unavailable[pair] = failure
        } else {
            availability.verified.insert(pair)
        }
        if let fingerprint = availability.fingerprints[pair] {
            probeCache.store([ProbeCache.Record(fingerprint: fingerprint, modeFile: mode.file.path, failure: failure, probed: Date())])
        }
        return failure
    }
}
