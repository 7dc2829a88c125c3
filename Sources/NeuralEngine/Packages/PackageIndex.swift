import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TranslationCore

/// An Argos Translate package index: the JSON list that argospm-index publishes, one object per
/// package: `code`, `package_version`, `argos_version`, `from_code`, `to_code`, `from_name`,
/// `to_name`, `links` (download URLs, first preferred), and, where an index gives them, `size`
/// (bytes) and `sha256`, which an install checks.
public struct PackageIndex: Sendable {
    /// Argos Translate's public index (argospm-index on GitHub).
    public static let defaultURL = "https://raw.githubusercontent.com/argosopentech/argospm-index/main/index.json"

    /// One package of the index.
    public struct Entry: Sendable, Equatable, Decodable {
        public var code: String?
        public var packageVersion: String?
        public var argosVersion: String?
        public var fromCode: String
        public var toCode: String
        public var fromName: String?
        public var toName: String?
        public var links: [String]
        public var size: Int?
        public var sha256: String?
        public var type: String?

        enum CodingKeys: String, CodingKey {
            case code, packageVersion = "package_version", argosVersion = "argos_version", fromCode = "from_code"
            case toCode = "to_code", fromName = "from_name", toName = "to_name", links, size, sha256, type
        }

        /// Makes an entry.
        public init(code: String?, packageVersion: String?, argosVersion: String?, fromCode: String, toCode: String,
                    fromName: String?, toName: String?, links: [String], size: Int?, sha256: String?, type: String?) {
            self.code = code
            self.packageVersion = packageVersion
            self.argosVersion = argosVersion
            self.fromCode = fromCode
            self.toCode = toCode
            self.fromName = fromName
            self.toName = toName
            self.links = links
            self.size = size
            self.sha256 = sha256
            self.type = type
        }

        /// The package's name: its `code`, else `translate-FROM_TO`.
        public var name: String { code ?? "translate-\(fromCode)_\(toCode)" }

        /// The version as numbers, for ordering (`1.9` < `1.10`).
        var versionNumbers: [Int] { (packageVersion ?? "0").split(whereSeparator: { !$0.isNumber }).map { Int($0) ?? 0 } }

        /// Whether this entry is a newer version than `version`.
        public func isNewer(than version: String?) -> Bool {
            let other = (version ?? "0").split(whereSeparator: { !$0.isNumber }).map { Int($0) ?? 0 }
            return versionNumbers.lexicographicallyPrecedes(other) == false && versionNumbers != other
        }
    }

    /// The translation packages.
    public let entries: [Entry]

    /// An index read from its JSON.
    /// - Throws: ``TranslationError`` `.invalidArgument` naming where it came from.
    public init(json: Data, source: String) throws {
        do {
            entries = try JSONDecoder().decode([Entry].self, from: json).filter { ($0.type ?? "translate") == "translate" && !$0.links.isEmpty }
        } catch {
            throw TranslationError(.invalidArgument, "The package index at \(source) is not an Argos package index (a JSON list of packages): \(error).")
        }
    }

    /// The index at `location`: an http(s) URL, a `file://` URL or a path.
    /// - Throws: ``TranslationError`` naming the location.
    public static func load(_ location: String) async throws -> PackageIndex {
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let file = try await Downloader.download(url, progress: { _ in })
            defer { try? FileManager.default.removeItem(at: file) }
            return try PackageIndex(json: try Data(contentsOf: file), source: location)
        }
        let path = location.hasPrefix("file://") ? String(location.dropFirst(7)) : location
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TranslationError(.invalidArgument, "Cannot read the package index \(path).")
        }
        return try PackageIndex(json: data, source: location)
    }

    /// The newest package for `source` → `target`, if any.
    public func newest(from source: String, to target: String) -> Entry? {
        entries.filter { $0.fromCode == source && $0.toCode == target }.max { $0.versionNumbers.lexicographicallyPrecedes($1.versionNumbers) }
    }

    /// The packages `query` asks for, newest versions:
    /// - a package name (`translate-en_de`, or its `code`): that package;
    /// - `FROM:TO` (`en:de`): that direction, or through English when no package is direct
    ///   (`es:de` is `es:en` and `en:de`);
    /// - a language (`de`): both directions with English.
    /// - Throws: ``TranslationError`` `.notInstalled` saying what the index lacks.
    public func select(_ query: String) throws -> [Entry] {
        if let named = entries.filter({ $0.name == query }).max(by: { $0.versionNumbers.lexicographicallyPrecedes($1.versionNumbers) }) {
            return [named]
        }
        let parts = query.split(separator: ":").map(String.init)
        if parts.count == 2 {
            let (s, t) = (parts[0], parts[1])
            if let direct = newest(from: s, to: t) { return [direct] }
            if s != "en", t != "en", let first = newest(from: s, to: "en"), let second = newest(from: "en", to: t) { return [first, second] }
            throw TranslationError(.notInstalled, "The index has no package from \(s) to \(t), directly or through English.")
        }
        let both = [newest(from: "en", to: query), newest(from: query, to: "en")].compactMap { $0 }
        guard !both.isEmpty else {
            throw TranslationError(.notInstalled, "The index has no package named \(query) and none between English and \(query) (see `glossa models available`).")
        }
        return both
    }
}

extension PackageIndex {
    /// An index of the `.argosmodel` files in a folder (an air-gapped machine's copy of the
    /// packages it needs), each described by its own `metadata.json`; a file that is not a
    /// package is named in `unreadable`, with the reason.
    public static func folder(_ path: String) throws -> (index: PackageIndex, unreadable: [String: String]) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: path) else {
            throw TranslationError(.invalidArgument, "Cannot read the folder \(path).")
        }
        var entries: [Entry] = [], unreadable: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".argosmodel") {
            let file = URL(fileURLWithPath: path).appendingPathComponent(name)
            do {
                let metadata = try ArgosPackage.metadata(inArchive: file)
                entries.append(Entry(code: nil, packageVersion: metadata.packageVersion, argosVersion: nil, fromCode: metadata.fromCode,
                                     toCode: metadata.toCode, fromName: metadata.fromName, toName: metadata.toName,
                                     links: [file.path], size: nil, sha256: nil, type: metadata.type))
            } catch let error as TranslationError {
                unreadable[name] = error.message
            }
        }
        return (PackageIndex(entries: entries), unreadable)
    }

    init(entries: [Entry]) { self.entries = entries }
}
