import Foundation
import NeuralEngine
import TranslationCore

/// `glossa models available`, `install NAME`, `install --offline DIR` and `update`: models by
/// name from an Argos package index or a folder of packages.
enum ModelIndexCommands {
    /// Whether an install argument names a package file or URL rather than a name in an index.
    static func isPackageLocation(_ argument: String) -> Bool {
        argument.contains("/") || argument.hasSuffix(".argosmodel")
    }

    static func available(index location: String, store: ModelStore, json: Bool) async throws {
        let index = try await PackageIndex.load(location)
        let installed = Set(store.list().models.map { "\($0.metadata.fromCode)-\($0.metadata.toCode)@\($0.metadata.packageVersion ?? "")" })
        var newest: [String: PackageIndex.Entry] = [:]
        for entry in index.entries {
            if let known = newest[entry.name], !entry.isNewer(than: known.packageVersion) { continue }
            newest[entry.name] = entry
        }
        let rows = newest.values.sorted { ($0.fromCode, $0.toCode, $0.name) < ($1.fromCode, $1.toCode, $1.name) }
        if json {
            struct Row: Encodable { let name: String; let from: String; let to: String; let version: String?; let installed: Bool }
            Console.json(rows.map { Row(name: $0.name, from: $0.fromCode, to: $0.toCode, version: $0.packageVersion,
                                        installed: installed.contains("\($0.fromCode)-\($0.toCode)@\($0.packageVersion ?? "")")) })
            return
        }
        for e in rows {
            let mark = installed.contains("\(e.fromCode)-\(e.toCode)@\(e.packageVersion ?? "")") ? "installed" : ""
            Console.out("\(e.name)\t\(e.fromCode)-\(e.toCode)\t\(e.packageVersion ?? "?")\t\(mark)")
        }
    }

    /// Installs what `query` names in the index; a package already installed at that version is left.
    static func install(_ query: String, index location: String, sha256: String?, into store: ModelStore) async throws {
        let index = try await PackageIndex.load(location)
        for entry in try index.select(query) { try await install(entry, sha256: sha256, into: store) }
    }

    static func installOffline(_ folder: String, names: [String], into store: ModelStore) async throws {
        let (index, unreadable) = try PackageIndex.folder(folder)
        for (name, reason) in unreadable.sorted(by: { $0.key < $1.key }) { Console.error("skipping \(name): \(reason)") }
        let entries = names.isEmpty ? index.entries : try names.flatMap { try index.select($0) }
        guard !entries.isEmpty else { throw TranslationError(.notInstalled, "No .argosmodel package in \(folder).") }
        for entry in entries { try await install(entry, sha256: nil, into: store) }
    }

    /// Installs the newer version of each installed model, then removes the older folder.
    static func update(index location: String, store: ModelStore) async throws {
        let index = try await PackageIndex.load(location)
        var updated = 0
        for model in store.list().models {
            guard let newer = index.newest(from: model.metadata.fromCode, to: model.metadata.toCode),
                  newer.isNewer(than: model.metadata.packageVersion) else { continue }
            let made = try await install(newer, sha256: nil, into: store)
            if made?.name != model.name { try store.remove(model.name) }
            updated += 1
        }
        Console.out(updated == 0 ? "Every installed model is the newest the index has." : "Updated \(updated) model\(updated == 1 ? "" : "s").")
    }

    /// One package, with a progress bar; nil when that version is installed already.
    @discardableResult
    static func install(_ entry: PackageIndex.Entry, sha256: String?, into store: ModelStore) async throws -> InstalledModel? {
        if store.list().models.contains(where: { $0.metadata.fromCode == entry.fromCode && $0.metadata.toCode == entry.toCode
                                                    && $0.metadata.packageVersion == entry.packageVersion }) {
            Console.out("\(entry.name) \(entry.packageVersion ?? "") (\(entry.fromCode) → \(entry.toCode)) is installed already.")
            return nil
        }
        let bar = ProgressBar()
        defer { bar.finish() }
        let label = "\(entry.name) \(entry.packageVersion ?? "")"
        let model = try await store.install(entry, sha256: sha256) { stage, fraction in
            bar.show(stage == "download" ? "Downloading \(label)" : "Unpacking \(label)", fraction)
        }
        bar.finish()
        Console.out("Installed \(model.name) (\(model.metadata.fromCode) → \(model.metadata.toCode)) in \(model.directory.path)")
        return model
    }
}
