import Foundation
import TranslationCore

/// The installed models by pair, read once and read again only when a models folder changes.
///
/// Listing the folder decodes every package's `metadata.json`; doing that per request would put
/// file I/O on Swift's cooperative pool and scale with the number of packages. Installing or
/// removing a package adds or deletes a subfolder, which changes the folder's modification time,
/// so one `stat` per lookup tells whether the listing is stale: models installed by
/// `glossa models install` in another process are seen too. `refresh()` forces a new listing.
final class ModelCatalog: @unchecked Sendable {
    // @unchecked: `snapshot` and `stamp` are guarded by `lock`.

    /// One listing of the store.
    struct Snapshot: Sendable {
        /// The package serving each pair (the first by folder name wins for a duplicate pair).
        var byPair: [LanguagePair: InstalledModel] = [:]
        /// Folders that are not usable packages, with the reason.
        var skipped: [String: String] = [:]
        /// For each served package folder, an identity that changes when the folder is
        /// replaced (its path and modification time): the loaded-model cache's key, so a
        /// reinstalled package is loaded afresh.
        var loadKeys: [URL: String] = [:]
    }

    /// The folders, in order of precedence (Glossa's own first).
    private let stores: [ModelStore]
    private let lock = NSLock()
    private var snapshot = Snapshot()
    private var stamp: [Date?]?   // nil: never listed; a nil time: that folder does not exist
    /// Whether `stamp` can be trusted: file times advance in coarse ticks (milliseconds), so a
    /// change in the same tick as the listing could leave the time unchanged. A listing made
    /// within a second of the folder's last change is taken again at the next lookup.
    private var settled = false

    init(stores: [ModelStore]) { self.stores = stores }

    /// Each folder's modification time (nil where it does not exist).
    private func times() -> [Date?] {
        stores.map { (try? FileManager.default.attributesOfItem(atPath: $0.root.path))?[.modificationDate] as? Date }
    }

    /// The current listing, re-read if a models folder changed since the last one.
    func current() -> Snapshot {
        let modified = times()
        lock.lock()
        defer { lock.unlock() }
        if settled, let stamp, stamp == modified { return snapshot }
        list(stamp: modified)
        return snapshot
    }

    /// Reads the folder again now (after an install or remove in this process).
    func refresh() {
        let modified = times()
        lock.lock()
        defer { lock.unlock() }
        list(stamp: modified)
    }

    /// Called under the lock.
    private func list(stamp modified: [Date?]) {
        var next = Snapshot()
        let listings = stores.map { $0.list() }
        for listing in listings { next.skipped.merge(listing.skipped) { first, _ in first } }
        for model in listings.flatMap(\.models) {
            guard let pair = NeuralEngine.pair(of: model) else {
                next.skipped[model.name] = "language codes '\(model.metadata.fromCode)'/'\(model.metadata.toCode)' are not valid"
                continue
            }
            if next.byPair[pair] == nil {
                next.byPair[pair] = model
                let time = (try? FileManager.default.attributesOfItem(atPath: model.directory.path))?[.modificationDate] as? Date
                next.loadKeys[model.directory] = "\(model.directory.path)@\(time?.timeIntervalSince1970 ?? 0)"
            }
        }
        snapshot = next
        stamp = modified
        settled = modified.allSatisfy { $0.map { Date().timeIntervalSince($0) > 1 } ?? true }
    }
}
