import Foundation
import Testing

/// What an integration test needs from the machine beyond the build, as a trait that skips the
/// test with a sentence naming what to install, so `swift test` passes on a machine without them.
public enum Requirement {
    /// Debian's Apertium modes folder, where every `apertium-*` pair package puts its modes.
    public static let apertiumModes = "/usr/share/apertium/modes"

    /// The FLORES-200 dev folder: `GLOSSA_FLORES_DIR`, else `../shared/data/flores200-dev` from
    /// the repository root (where `swift test` and `make test` run).
    public static var floresDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["GLOSSA_FLORES_DIR"], !dir.isEmpty { return dir }
        return FileManager.default.currentDirectoryPath + "/../shared/data/flores200-dev"
    }

    /// Whether Apertium's `mode` (`eng-spa`) is installed.
    public static func hasApertiumMode(_ mode: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(apertiumModes)/\(mode).mode")
    }

    /// Whether FLORES-200 dev has the file for `stem` (`eng_Latn`).
    public static func hasFlores(_ stem: String = "eng_Latn") -> Bool {
        FileManager.default.fileExists(atPath: "\(floresDirectory)/\(stem).dev")
    }

    /// Runs only where Apertium's `modes` are installed; skips naming the Debian packages.
    /// `package` is the Debian package for a mode whose name is not the package's
    /// (`apertium-eng-spa` for `eng-spa`; `apertium-es-fr` for `es-fr`), by default
    /// `apertium-` and the mode's pair.
    public static func apertium(_ modes: String..., package: String? = nil) -> ConditionTrait {
        let packages = package.map { [$0] } ?? modes.map { "apertium-" + ($0.split(separator: "-").prefix(2).joined(separator: "-")) }
        return .enabled(if: modes.allSatisfy(hasApertiumMode),
                        "needs Apertium's \(modes.joined(separator: ", ")) (Debian \(Set(packages).sorted().joined(separator: ", ")))")
    }

    /// Runs only where FLORES-200 dev is found; skips saying where it was looked for.
    public static func flores(_ stems: String...) -> ConditionTrait {
        .enabled(if: (stems.isEmpty ? ["eng_Latn"] : stems).allSatisfy(hasFlores),
                 "needs FLORES-200 dev (\(stems.isEmpty ? "eng_Latn" : stems.joined(separator: ", "))) in ../shared/data/flores200-dev or GLOSSA_FLORES_DIR")
    }
}
