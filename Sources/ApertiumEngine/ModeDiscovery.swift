import Foundation
import TranslationCore

/// Finds installed modes by reading mode directories (Debian's `/usr/share/apertium/modes` and
/// the user's), turning names such as `eng-spa`, `es-pt_BR`, `eng-cat_valencia_iec2017` into
/// pairs and setting aside, with the reason, the names that are not a pair (`eco-es-fr`).
enum ModeDiscovery {
    /// What a scan found.
    struct Result: Sendable {
        /// Modes by pair; when two directories name the same pair, the first directory wins.
        var modes: [LanguagePair: ApertiumMode] = [:]
        /// Mode names that were not loaded, with the reason.
        var skipped: [String: String] = [:]
    }

    /// Scans `directories` in order; a directory that does not exist is skipped silently, since
    /// the defaults name directories that only some machines have.
    static func scan(_ directories: [URL]) -> Result {
        var result = Result()
        let fm = FileManager.default
        for directory in directories {
            guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { continue }
            for file in names.sorted() where file.hasSuffix(".mode") {
                let name = String(file.dropLast(".mode".count))
                let url = directory.appendingPathComponent(file)
                do {
                    let pair = try LanguagePair(parsing: name)
                    if let existing = result.modes[pair] {
                        result.skipped[url.path] = "\(pair) is already served by \(existing.file.path)"
                        continue
                    }
                    result.modes[pair] = ApertiumMode(pair: pair, name: name, file: url)
                } catch let error as TranslationError {
                    result.skipped[name] = Self.whyNotAPair(name, error: error)
                } catch {
                    result.skipped[name] = "not a language pair: \(error)"
                }
            }
        }
        return result
    }

    /// Why a mode name is not a pair: a debugging or auxiliary mode (`en-eo-bytecode`), a script
    /// conversion (`Cyrl-Latn`, Serbo-Croatian Cyrillic into Latin letters), or a bad code.
    static func whyNotAPair(_ name: String, error: TranslationError) -> String {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if parts.count != 2 {
            return "not a language pair: a mode name is SOURCE-TARGET, this one has \(parts.count) parts (an auxiliary mode)"
        }
        if parts.allSatisfy({ $0.count == 4 && $0.first?.isUppercase == true }) {
            return "not a language pair: a conversion between the scripts \(parts[0]) and \(parts[1]) (no language is named)"
        }
        return "not a language pair: \(error.message)"
    }

    /// The directories to scan: the configured ones, then `GLOSSA_APERTIUM_MODES` (colon-separated).
    static func directories(configured: [URL], environment: [String: String]) -> [URL] {
        let fromEnvironment = (environment["GLOSSA_APERTIUM_MODES"] ?? "")
            .split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        return configured + fromEnvironment
    }
}
