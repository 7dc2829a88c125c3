import Foundation
import TranslationCore

/// Which installed pairs work, which do not (and why), and which are not yet known. Owned by the
/// engine actor.
struct PairAvailability: Sendable {
    /// Pairs that do not work here, with the reason.
    var unavailable: [LanguagePair: String] = [:]
    /// Pairs whose probe passed (in this run, or recorded for the same installed files).
    var verified: Set<LanguagePair> = []
    /// Probes under way, so concurrent first uses share one.
    var probing: [LanguagePair: Task<String?, Never>] = [:]
    /// Each mode's fingerprint, for the cache (see ``ProbeCache``).
    var fingerprints: [LanguagePair: String] = [:]

    /// The state at start-up: modes that name a missing program or file are unavailable at once
    /// (no process is started); the cache supplies verdicts recorded for the same files.
    /// `alsoRuns` are programs Glossa runs in place of a stage (the resetting tagger): part of
    /// every fingerprint, so a new build of one probes again.
    init(modes: [LanguagePair: ApertiumMode], cache: ProbeCache, path: String, alsoRuns: [String] = []) {
        let records = cache.load()
        for (pair, mode) in modes {
            guard let inspection = ModeInspection(modeFile: mode.file) else {
                unavailable[pair] = "its mode file \(mode.file.path) cannot be read"
                continue
            }
            if let problem = inspection.problem(path: path) {
                unavailable[pair] = problem
                continue
            }
            let fingerprint = ProbeCache.fingerprint(modeFile: mode.file.path, inspection: inspection, path: path,
                                                     probeText: ProbeTexts.text(for: pair.source), alsoRuns: alsoRuns)
            fingerprints[pair] = fingerprint
            guard let verdict = ProbeCache.verdict(records[fingerprint], fingerprint: fingerprint) else { continue }
            if let failure = verdict.failure {
                unavailable[pair] = failure + " (probed \(Self.day(verdict.probed)); \(cache.file?.path ?? "the probe cache") keeps the verdict for a day)"
            } else {
                verified.insert(pair)
            }
        }
    }

    /// Whether `pair` still needs a probe before it is used or listed.
    func needsProbe(_ pair: LanguagePair) -> Bool {
        unavailable[pair] == nil && !verified.contains(pair)
    }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
