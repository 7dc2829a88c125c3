import Foundation

/// Probe outcomes kept between runs, so each mode is probed once per installed version of it
/// rather than every time Glossa starts (probing all of Debian's pairs starts ~130 pipelines:
/// about 45 CPU-seconds).
///
/// A record is used only while its fingerprint matches: the mode file's text, the size and
/// modification time of every file it names and every program it runs (Glossa's resetting
/// tagger included), the probe passage and ``revision``. Upgrading or reinstalling a package, or any change to what the probe runs,
/// therefore probes again. A failure is also probed again after ``failureLifetime``, in case it
/// was the machine's (a hang under heavy load) rather than the pair's.
///
/// Records are keyed by fingerprint, not by mode file: two Glossa builds on one machine (each
/// with its own resetting tagger, so different fingerprints for the same mode) share the file
/// without overwriting each other's verdicts, so neither probes every pair again at each start.
/// A mode file keeps its ``recordsPerMode`` newest records.
struct ProbeCache: Sendable {
    /// Bump when the way pipelines are run changes, so that old verdicts are not trusted.
    static let revision = 2
    /// Records kept per mode file (one per build or installed version that probed it recently).
    static let recordsPerMode = 4
    /// How long a recorded failure is believed. Successes last as long as their fingerprint.
    static let failureLifetime: TimeInterval = 24 * 3600

    /// One mode's verdict.
    struct Record: Codable, Sendable, Equatable {
        var fingerprint: String
        /// The mode file probed (to drop records of modes that are gone).
        var modeFile: String
        /// Why the mode does not work; nil when it passed.
        var failure: String?
        var probed: Date
    }

    private struct File: Codable {
        var revision: Int
        var records: [String: Record]
    }

    /// The file, or nil when results are not kept.
    let file: URL?

    /// The records by fingerprint (empty when there is no file or it cannot be read).
    func load() -> [String: Record] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let file, let data = try? Data(contentsOf: file),
              let decoded = try? decoder.decode(File.self, from: data), decoded.revision == Self.revision else { return [:] }
        return decoded.records
    }

    /// Merges `updates` into the file (read again first, so other Glossa processes' records
    /// survive) and replaces it atomically; records of mode files that are gone are dropped, and
    /// each mode file keeps its ``recordsPerMode`` newest. Failing to write only means probing
    /// again next time.
    func store(_ updates: [Record]) {
        guard let file, !updates.isEmpty else { return }
        var records = load().filter { FileManager.default.fileExists(atPath: $0.value.modeFile) }
        for record in updates { records[record.fingerprint] = record }
        for (_, ofMode) in Dictionary(grouping: records.values, by: \.modeFile) where ofMode.count > Self.recordsPerMode {
            for old in ofMode.sorted(by: { $0.probed > $1.probed }).dropFirst(Self.recordsPerMode) {
                records[old.fingerprint] = nil
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(File(revision: Self.revision, records: records)) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }

    /// The verdict in `record` (the one recorded under `fingerprint`) if it still holds.
    static func verdict(_ record: Record?, fingerprint: String, now: Date = Date()) -> Record? {
        guard let record, record.fingerprint == fingerprint else { return nil }
        if record.failure != nil, now.timeIntervalSince(record.probed) > failureLifetime { return nil }
        return record
    }

    /// What a verdict on `mode` depends on, hashed.
    static func fingerprint(modeFile: String, inspection: ModeInspection, path: String, probeText: String,
                            alsoRuns: [String] = []) -> String {
        var text = "revision \(revision)\nmode \(modeFile)\n\(inspection.command)\ntext \(probeText)\n"
        let programs = inspection.programs.compactMap { ModeInspection.resolve($0, path: path) } + alsoRuns
        for item in inspection.files + programs + [modeFile] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: item)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            text += "\(item) \(size) \(modified)\n"
        }
        return fnv1a(Array(text.utf8))
    }

    /// The cache file: `GLOSSA_PROBE_CACHE` (a file; `off` keeps none), else `apertium-probes.json`
    /// in `$XDG_CACHE_HOME/glossa` or `~/.cache/glossa`.
    static func defaultFile(environment: [String: String]) -> URL? {
        if let setting = environment["GLOSSA_PROBE_CACHE"], !setting.isEmpty {
            return setting == "off" ? nil : URL(fileURLWithPath: setting)
        }
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else if let home = environment["HOME"], !home.isEmpty {
            base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
        } else {
            return nil
        }
        return base.appendingPathComponent("glossa/apertium-probes.json")
    }

    /// FNV-1a, 64 bits: a stable content hash (not for security).
    private static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
