import Foundation
import TranslationCore
import Zip

/// The `metadata.json` of an Argos Translate package (argostranslate/package.py).
public struct ArgosMetadata: Sendable, Equatable, Codable {
    /// Source language code (ISO 639).
    public var fromCode: String
    /// Target language code (ISO 639).
    public var toCode: String
    /// Source language name, if given.
    public var fromName: String?
    /// Target language name, if given.
    public var toName: String?
    /// Package version, if given.
    public var packageVersion: String?
    /// Package type; `translate` when absent.
    public var type: String?
    /// A token the decoder must start from (multilingual packages); not supported yet.
    public var targetPrefix: String?

    enum CodingKeys: String, CodingKey {
        case fromCode = "from_code", toCode = "to_code", fromName = "from_name", toName = "to_name"
        case packageVersion = "package_version", type, targetPrefix = "target_prefix"
    }
}

/// An installed (unpacked) Argos Translate package: `metadata.json`, the CTranslate2 model in
/// `model/` and `sentencepiece.model`. Argos's own sentence splitter (Stanza) is not used;
/// Glossa segments text itself.
public struct ArgosPackage: Sendable {
    /// The package directory.
    public let directory: URL
    /// Its metadata.
    public let metadata: ArgosMetadata

    /// The CTranslate2 model directory.
    public var modelDirectory: URL { directory.appendingPathComponent("model") }
    /// The SentencePiece model.
    public var sentencePieceModel: URL { directory.appendingPathComponent("sentencepiece.model") }

    /// Reads the package at `directory`.
    /// - Throws: ``TranslationError`` naming the missing or malformed file.
    public init(directory: URL) throws {
        self.directory = directory
        let metaURL = directory.appendingPathComponent("metadata.json")
        guard FileManager.default.fileExists(atPath: metaURL.path) else {
            throw TranslationError(.engineFailure, "Not an Argos Translate package: \(metaURL.path) is missing.")
        }
        do {
            metadata = try JSONDecoder().decode(ArgosMetadata.self, from: try readFile(metaURL))
        } catch let error as TranslationError {
            throw error
        } catch {
            throw TranslationError(.engineFailure, "Malformed package metadata \(metaURL.path): needs string fields from_code and to_code (\(error)).")
        }
        if let type = metadata.type, type != "translate" {
            throw TranslationError(.engineFailure, "Unsupported package \(directory.path): type '\(type)' (only 'translate').")
        }
        if let prefix = metadata.targetPrefix, !prefix.isEmpty {
            throw TranslationError(.engineFailure, "Unsupported package \(directory.path): it needs target prefix '\(prefix)' (multilingual packages are not supported yet).")
        }
        for (url, what) in [(modelDirectory.appendingPathComponent("model.bin"), "model/model.bin"),
                            (sentencePieceModel, "sentencepiece.model")] where !FileManager.default.fileExists(atPath: url.path) {
            throw TranslationError(.engineFailure, "Incomplete package \(directory.path): \(what) is missing (BPE-tokenized packages are not supported).")
        }
    }

    /// Unpacks the `.argosmodel` zip at `archive` into `parent/<top folder>` and returns that
    /// folder. The archive must hold exactly one top folder with `metadata.json`; paths that
    /// would escape it are rejected. An existing folder of the same name is replaced only after
    /// the new one is complete.
    /// The `metadata.json` of a package file, read without unpacking it.
    /// - Throws: ``TranslationError`` `.engineFailure` for a file that is not a package.
    public static func metadata(inArchive archive: URL) throws -> ArgosMetadata {
        let zip = try packageZip(archive) { try ZipArchive(url: archive) }
        guard let entry = zip.entries.first(where: { $0.path.split(separator: "/").count == 2 && $0.path.hasSuffix("/metadata.json") }) else {
            throw TranslationError(.engineFailure, "Malformed package \(archive.path): no metadata.json in its top folder.")
        }
        do {
            return try JSONDecoder().decode(ArgosMetadata.self, from: Data(try packageZip(archive) { try zip.contents(of: entry) }))
        } catch let error as TranslationError {
            throw error
        } catch {
            throw TranslationError(.engineFailure, "Malformed package \(archive.path): metadata.json: \(error).")
        }
    }

    public static func unpack(_ archive: URL, into parent: URL, progress: (@Sendable (Double) -> Void)? = nil) throws -> URL {
        let zip = try packageZip(archive) { try ZipArchive(url: archive) }
        let files = zip.entries.filter { !$0.isDirectory }
        let roots = Set(files.map { $0.path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? "" })
        guard roots.count == 1, let root = roots.first, !root.isEmpty, root != "..", root != ".",
              files.contains(where: { $0.path == root + "/metadata.json" }) else {
            throw TranslationError(.engineFailure, "Malformed package \(archive.path): expected one top folder holding metadata.json, found \(roots.sorted().prefix(5)).")
        }
        let fm = FileManager.default
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".unpack-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }
        for (index, entry) in files.enumerated() {
            let parts = entry.path.split(separator: "/").map(String.init)
            guard !entry.path.hasPrefix("/"), !parts.contains(".."), !parts.contains(".") else {
                throw TranslationError(.engineFailure, "Malformed package \(archive.path): unsafe entry path '\(entry.path)'.")
            }
            let target = parts.reduce(staging) { $0.appendingPathComponent($1) }
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard fm.createFile(atPath: target.path, contents: Data(try packageZip(archive) { try zip.contents(of: entry) })) else {
                throw TranslationError(.engineFailure, "Cannot write \(target.path) while unpacking \(archive.path).")
            }
            progress?(Double(index + 1) / Double(files.count))
        }
        let unpacked = staging.appendingPathComponent(root)
        _ = try ArgosPackage(directory: unpacked)   // validate before replacing anything
        let destination = parent.appendingPathComponent(root)
        if fm.fileExists(atPath: destination.path) { try fm.removeItem(at: destination) }
        try fm.moveItem(at: unpacked, to: destination)
        return destination
    }
}

/// Runs a zip read of the package at `archive`, reporting a damaged archive as a malformed package.
private func packageZip<T>(_ archive: URL, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ZipError {
        throw TranslationError(.engineFailure, "Malformed package \(archive.path): \(error.message).")
    }
}
