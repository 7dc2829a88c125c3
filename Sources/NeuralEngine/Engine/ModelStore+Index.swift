import CCrypto
import Foundation
import TranslationCore

extension ModelStore {
    /// Installs a package of an index from its first link, checked before anything is unpacked:
    /// its size and SHA-256 where the index (or `sha256`) gives them, then every zip entry's
    /// CRC-32 while unpacking. A download that stops part-way is kept under `.downloads` and
    /// goes on from there next time; a package that fails a check is deleted, and nothing is
    /// installed. `progress` receives (stage, fraction): `download`, then `unpack`.
    /// - Throws: ``TranslationError`` naming the package and what failed.
    @discardableResult
    public func install(_ entry: PackageIndex.Entry, sha256 given: String? = nil,
                        progress: (@Sendable (String, Double) -> Void)? = nil) async throws -> InstalledModel {
        guard let link = entry.links.first, let url = URL(string: link) else {
            throw TranslationError(.invalidArgument, "The index gives no download link for \(entry.name).")
        }
        let archive: URL
        var partial: URL?
        if url.isFileURL || url.scheme == nil {
            archive = URL(fileURLWithPath: url.isFileURL ? url.path : link)
        } else {
            let downloads = root.appendingPathComponent(".downloads")
            try? FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            let part = downloads.appendingPathComponent("\(entry.name)-\(entry.packageVersion ?? "0").argosmodel.part")
            archive = try await Downloader.download(url, into: part, progress: { progress?("download", $0) })
            partial = part
        }
        do {
            try Self.verify(archive, entry: entry, sha256: given ?? entry.sha256)
            let model = try await install(from: archive.path, progress: { stage, f in if stage == "unpack" { progress?(stage, f) } })
            if let partial { try? FileManager.default.removeItem(at: partial) }
            return model
        } catch {
            // A package that fails a check is no use to resume: the next attempt starts afresh.
            if let partial { try? FileManager.default.removeItem(at: partial) }
            if let error = error as? TranslationError {
                throw TranslationError(error.kind, error.message.replacingOccurrences(of: archive.path, with: link))
            }
            throw error
        }
    }

    /// Checks the size and the SHA-256 (when known) of a downloaded package.
    static func verify(_ file: URL, entry: PackageIndex.Entry, sha256: String?) throws {
        if let size = entry.size {
            let actual = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? -1
            guard actual == size else {
                throw TranslationError(.engineFailure, "The package \(entry.name) is \(actual) bytes; the index says \(size): refused, nothing installed.")
            }
        }
        if let sha256 {
            let actual = try Self.sha256(of: file)
            guard actual == sha256.lowercased() else {
                throw TranslationError(.engineFailure, "The package \(entry.name) has SHA-256 \(actual), not \(sha256.lowercased()): refused, nothing installed.")
            }
        }
    }

    /// The SHA-256 of a file, in lower-case hex, read in pieces.
    static func sha256(of file: URL) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw TranslationError(.engineFailure, "Cannot read \(file.path).")
        }
        defer { try? handle.close() }
        guard let context = EVP_MD_CTX_new() else { throw TranslationError(.engineFailure, "SHA-256 is unavailable (out of memory).") }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            _ = chunk.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
