import Documents
import Synchronization
import TranslationCore

/// Translated documents waiting to be fetched, and translations still running: LibreTranslate's
/// `/download_file/{name}` reads the first, DeepL's `/v2/document/{id}` the second.
///
/// Bounded: a document is kept at most `lifetime` after it is done (LibreTranslate removes its
/// files after a while too), at most `maxBytes` are kept in all (oldest dropped first), and a
/// DeepL document is removed once downloaded, as DeepL does.
final class DocumentJobs: Sendable {
    /// Where a job is.
    enum Status: Sendable, Equatable {
        case translating
        case done(bytes: [UInt8], format: DocumentFormat, characters: Int)
        case failed(String)
    }

    private struct Job {
        var key: String
        var name: String
        var status: Status
        var finished: ContinuousClock.Instant?
    }

    private let jobs = Mutex<[String: Job]>([:])
    private let lifetime: Duration
    private let maxBytes: Int

    init(lifetime: Duration = .seconds(3600), maxBytes: Int = 512 << 20) {
        self.lifetime = lifetime
        self.maxBytes = maxBytes
    }

    /// A new random identifier (hexadecimal, 32 digits).
    static func identifier() -> String {
        (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max), radix: 16).leftPadded(8) }.joined().uppercased()
    }

    /// Starts `work` as job `id` (named `name` for the download), readable with `key`.
    func start(id: String, key: String, name: String,
               _ work: @escaping @Sendable () async throws -> TranslatedDocument) {
        jobs.withLock { $0[id] = Job(key: key, name: name, status: .translating, finished: nil) }
        Task.detached { [self] in
            let status: Status
            do {
                let document = try await work()
                status = .done(bytes: document.bytes, format: document.format, characters: document.characters)
            } catch {
                status = .failed((error as? DocumentError)?.message ?? (error as? TranslationError)?.message ?? "\(error)")
            }
            finish(id, status)
        }
    }

    /// Stores an already translated document as job `id`.
    func store(id: String, key: String, name: String, _ document: TranslatedDocument) {
        jobs.withLock { $0[id] = Job(key: key, name: name, status: .translating, finished: nil) }
        finish(id, .done(bytes: document.bytes, format: document.format, characters: document.characters))
    }

    /// The status and download name of job `id` when `key` matches; nil for an unknown job.
    func status(_ id: String, key: String?) -> (status: Status, name: String)? {
        expire()
        return jobs.withLock { jobs in
            guard let job = jobs[id], key == nil || job.key == key else { return nil }
            return (job.status, job.name)
        }
    }

    /// Removes job `id` (after its download).
    func remove(_ id: String) { _ = jobs.withLock { $0.removeValue(forKey: id) } }

    private func finish(_ id: String, _ status: Status) {
        jobs.withLock { jobs in
            jobs[id]?.status = status
            jobs[id]?.finished = .now
            // Keep the total under the limit: drop the oldest finished documents first.
            var total = jobs.values.reduce(0) { $0 + Self.size($1.status) }
            for (old, _) in jobs.filter({ $0.value.finished != nil }).sorted(by: { $0.value.finished! < $1.value.finished! }) where total > maxBytes {
                total -= Self.size(jobs[old]!.status)
                jobs[old] = nil
            }
        }
    }

    private func expire() {
        let now = ContinuousClock.now
        jobs.withLock { jobs in
            for (id, job) in jobs where job.finished.map({ now - $0 > lifetime }) == true { jobs[id] = nil }
        }
    }

    private static func size(_ status: Status) -> Int {
        if case .done(let bytes, _, _) = status { return bytes.count }
        return 0
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
