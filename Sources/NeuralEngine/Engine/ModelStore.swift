import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TranslationCore

/// One installed neural model (an unpacked Argos Translate package).
public struct InstalledModel: Sendable, Equatable {
    /// The folder name, used by `remove`.
    public let name: String
    /// The package folder.
    public let directory: URL
    /// Its metadata (language codes).
    public let metadata: ArgosMetadata
}

/// The installed models under `$XDG_DATA_HOME/glossa/models` (default
/// `~/.local/share/glossa/models`): install from a path or URL, list, remove.
public struct ModelStore: Sendable {
    /// The folder holding one subfolder per package.
    public let root: URL

    /// A store at `root`.
    public init(root: URL) { self.root = root }

    /// The XDG location: `$XDG_DATA_HOME/glossa/models`, else `~/.local/share/glossa/models`.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/share")
        }
        return base.appendingPathComponent("glossa/models")
    }

    /// Installed packages sorted by name; folders that are not valid packages are reported in
    /// `skipped` with the reason, never silently ignored.
    public func list() -> (models: [InstalledModel], skipped: [String: String]) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: root.path) else { return ([], [:]) }
        var models: [InstalledModel] = []
        var skipped: [String: String] = [:]
        for name in names.sorted() where !name.hasPrefix(".") {
            let dir = root.appendingPathComponent(name)
            do {
                let package = try ArgosPackage(directory: dir)
                models.append(InstalledModel(name: name, directory: dir, metadata: package.metadata))
            } catch let error as TranslationError {
                skipped[name] = error.message
            } catch {
                skipped[name] = "\(error)"
            }
        }
        return (models, skipped)
    }

    /// Installs an `.argosmodel` from a local path or an http(s) URL. `progress` receives
    /// (stage, fraction) with stage `download` then `unpack`.
    /// - Throws: ``TranslationError`` (`invalidArgument` for a missing file, `engineFailure`
    ///   for a failed download or a malformed package).
    @discardableResult
    public func install(from source: String, progress: (@Sendable (String, Double) -> Void)? = nil) async throws -> InstalledModel {
        var archive: URL
        var downloaded: URL?
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            archive = try await Downloader.download(url, progress: { progress?("download", $0) })
            downloaded = archive
        } else {
            archive = URL(fileURLWithPath: source.hasPrefix("file://") ? String(source.dropFirst(7)) : source)
            guard FileManager.default.fileExists(atPath: archive.path) else {
                throw TranslationError(.invalidArgument, "No such model package: \(archive.path).")
            }
        }
        defer { if let downloaded { try? FileManager.default.removeItem(at: downloaded) } }
        let dir: URL
        do {
            dir = try ArgosPackage.unpack(archive, into: root, progress: { progress?("unpack", $0) })
        } catch let error as TranslationError where downloaded != nil {
            // The user gave a URL and never saw the temporary file (deleted on return): the
            // message names what they gave.
            throw TranslationError(error.kind, error.message.replacingOccurrences(of: archive.path, with: source))
        }
        let package = try ArgosPackage(directory: dir)
        return InstalledModel(name: dir.lastPathComponent, directory: dir, metadata: package.metadata)
    }

    /// Removes the installed package `name` (a folder name from `list`).
    public func remove(_ name: String) throws {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw TranslationError.invalidArgument("model name", given: name, accepted: "a name from 'glossa models list'")
        }
        let dir = root.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: dir.path) else {
            let names = list().models.map(\.name)
            throw TranslationError(.notInstalled, "No installed model named '\(name)'. Installed: \(names.isEmpty ? "none" : names.joined(separator: ", ")).")
        }
        do {
            try FileManager.default.removeItem(at: dir)
        } catch {
            throw TranslationError(.engineFailure, "Cannot remove \(dir.path): \(error.localizedDescription)")
        }
    }
}
