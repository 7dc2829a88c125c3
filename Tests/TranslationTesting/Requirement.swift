import Foundation
import Testing

/// What an integration test needs from the machine beyond the build, as a trait that skips the
/// test with a sentence naming what to install, so `swift test` passes on a machine without
/// them (`make deps-test` installs them all).
public enum Requirement {
    /// Debian's Apertium modes folder, where every `apertium-*` pair package puts its modes.
    public static let apertiumModes = "/usr/share/apertium/modes"

    /// The FLORES-200 dev folder: `GLOSSA_FLORES_DIR`, else `../shared/data/flores200-dev` from
    /// the repository root (where `swift test` and `make test` run).
    public static var floresDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["GLOSSA_FLORES_DIR"], !dir.isEmpty { return dir }
        return "../shared/data/flores200-dev"
    }

    /// Whether Apertium's `mode` (`eng-spa`) is installed.
    public static func hasApertiumMode(_ mode: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(apertiumModes)/\(mode).mode")
    }

    /// Whether Apertium's own programs (Debian `apertium` and `lttoolbox`) can be run.
    public static var hasApertiumTools: Bool {
        ["apertium", "apertium-deshtml", "apertium-wblank-mode", "lt-proc"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0)
        }
    }

    /// Whether FLORES-200 dev has the file for `stem` (`eng_Latn`).
    public static func hasFlores(_ stem: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(floresDirectory)/\(stem).dev")
    }

    /// Runs only where Apertium's `modes` are installed; skips naming them and their Debian
    /// `packages` (a package is named by its pair as Debian orders it: `es-fr` is in
    /// `apertium-fr-es`). Default package: `apertium-` and the one mode's name.
    public static func apertium(_ modes: String..., packages: [String] = []) -> ConditionTrait {
        let named = packages.isEmpty ? modes.map { "apertium-" + $0 } : packages
        return .enabled(if: modes.allSatisfy(hasApertiumMode),
                        "needs Apertium's \(modes.joined(separator: ", ")) (Debian \(named.joined(separator: ", ")))")
    }

    /// Runs only where Apertium's own programs are installed.
    public static var apertiumTools: ConditionTrait {
        .enabled(if: hasApertiumTools, "needs Apertium's programs (Debian apertium and lttoolbox)")
    }

    /// Runs only where FLORES-200 dev has every one of `stems`; skips saying where it looked.
    public static func flores(_ stems: String...) -> ConditionTrait {
        .enabled(if: stems.allSatisfy(hasFlores),
                 "needs FLORES-200 dev (\(stems.joined(separator: ", "))) in ../shared/data/flores200-dev or GLOSSA_FLORES_DIR")
    }
}
