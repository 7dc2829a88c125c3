import AccessControl
import Documents
import Foundation
import Synchronization
import TranslationCore

/// Translated documents waiting to be fetched, and translations still running: LibreTranslate's
/// `/download_file/{name}` reads the first, DeepL's `/v2/document/{id}` the second.
///
/// Kept in this process's memory, or in the database (``DocumentJobTable``) when the server has
/// one it may share with other replicas: then a status poll or a download that a load balancer
/// sends to another replica finds the job too.
///
/// Bounded: a document is kept at most `lifetime` after it is done (LibreTranslate removes its
/// files after a while too), at most `maxBytes` are kept in all (oldest dropped first), and a
/// DeepL document is removed once downloaded, as DeepL does. In the database, a job still
/// translating after `lifetime` is dropped too: the replica that had it stopped.
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
        var finished: Date?
    }

    private let memory = Mutex<[String: Job]>([:])
    private let table: DocumentJobTable?
    private let lifetime: Duration
    private let maxBytes: Int
    /// When the table was last cleared of expired jobs (at most once a minute per process).
    private let lastExpiry = Mutex(Date.distantPast)

    /// Jobs in memory, or in `table` when given.
    init(lifetime: Duration = .seconds(3600), maxBytes: Int = 512 << 20, table: DocumentJobTable? = nil) {
        self.lifetime = lifetime
        self.maxBytes = maxBytes
        self.table = table
    }

    /// A new random identifier (hexadecimal, 32 digits).
    static func identifier() -> String {
        (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max), radix: 16).leftPadded(8) }.joined().uppercased()
    }

    /// Starts `work` as job `id` (named `name` for the download), readable with `key`. Returns
    /// once the job is recorded, so a poll that reaches another replica next finds it.
    func start(id: String, key: String, name: String,
               _ work: @escaping @Sendable () async throws -> TranslatedDocument) async throws {
        try await save(id, Job(key: key, name: name, status: .translating, finished: nil))
        Task.detached { [self] in
            let status: Status
            do {
                let document = try await work()
                status = .done(bytes: document.bytes, format: document.format, characters: document.characters)
            } catch {
                status = .failed((error as? DocumentError)?.message ?? (error as? TranslationError)?.message ?? "\(error)")
            }
            // The database may be away for a moment: try again before giving the job up (a
            // poll then sees it translating until it expires).
            for attempt in 0..<5 {
                do { return try await save(id, Job(key: key, name: name, status: status, finished: Date())) } catch {
                    try? await Task.sleep(for: .seconds(attempt + 1))
                }
            }
        }
    }

    /// Stores an already translated document as job `id`.
    func store(id: String, key: String, name: String, _ document: TranslatedDocument) async throws {
        try await save(id, Job(key: key, name: name, status: .done(bytes: document.bytes, format: document.format,
                                                                   characters: document.characters), finished: Date()))
    }

    /// The status and download name of job `id` when `key` matches; nil for an unknown job.
    func status(_ id: String, key: String?) async throws -> (status: Status, name: String)? {
        try await expire()
        guard let job = try await load(id), key == nil || job.key == key else { return nil }
        return (job.status, job.name)
    }

    /// Removes job `id` (after its download).
    func remove(_ id: String) async throws {
        if let table { try await table.remove(id) } else { _ = memory.withLock { $0.removeValue(forKey: id) } }
    }

    private func save(_ id: String, _ job: Job) async throws {
        guard let table else {
            return memory.withLock { jobs in
                jobs[id] = job
                // Keep the total under the limit: drop the oldest finished documents first.
                var total = jobs.values.reduce(0) { $0 + Self.size($1.status) }
                for (old, _) in jobs.filter({ $0.value.finished != nil }).sorted(by: { $0.value.finished! < $1.value.finished! }) where total > maxBytes {
                    total -= Self.size(jobs[old]!.status)
                    jobs[old] = nil
                }
            }
        }
        try await table.prepare()
        try await table.put(id, Self.row(job))
    }

    private func load(_ id: String) async throws -> Job? {
        guard let table else { return memory.withLock { $0[id] } }
        try await table.prepare()
        return try await table.get(id).map(Self.job)
    }

    private func expire() async throws {
        let now = Date(), seconds = Double(lifetime.components.seconds)
        guard let table else {
            return memory.withLock { jobs in
                for (id, job) in jobs where job.finished.map({ now.timeIntervalSince($0) > seconds }) == true { jobs[id] = nil }
            }
        }
        let due = lastExpiry.withLock { last in
            guard now.timeIntervalSince(last) >= 60 else { return false }
            last = now
            return true
        }
        guard due else { return }
        try await table.prepare()
        let cutoff = now.addingTimeInterval(-seconds)
        try await table.expire(finishedBefore: cutoff, startedBefore: cutoff, maxBytes: maxBytes)
    }

    private static func size(_ status: Status) -> Int {
        if case .done(let bytes, _, _) = status { return bytes.count }
        return 0
    }

    private static func row(_ job: Job) -> DocumentJobTable.Row {
        var row = DocumentJobTable.Row(secret: job.key, name: job.name, state: .translating, started: Date(), finished: job.finished)
        switch job.status {
        case .translating: break
        case .done(let bytes, let format, let characters):
            (row.state, row.document, row.format, row.characters) = (.done, bytes, format.rawValue, characters)
        case .failed(let message):
            (row.state, row.message) = (.failed, message)
        }
        return row
    }

    private static func job(_ row: DocumentJobTable.Row) -> Job {
        let status: Status
        switch row.state {
        case .translating: status = .translating
        case .failed: status = .failed(row.message ?? "The document could not be translated.")
        case .done:
            guard let format = row.format.flatMap(DocumentFormat.init(rawValue:)), let bytes = row.document else {
                status = .failed("The translated document could not be read back.")
                break
            }
            status = .done(bytes: bytes, format: format, characters: row.characters ?? 0)
        }
        return Job(key: row.secret, name: row.name, status: status, finished: row.finished)
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
