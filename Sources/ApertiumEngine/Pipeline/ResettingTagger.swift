import Foundation

/// Finds `glossa-apertium-tagger` and puts it in place of `apertium-tagger` in a mode's pipeline.
public enum ResettingTagger {
    /// The executable's name (a product of this package).
    public static let executableName = "glossa-apertium-tagger"

    /// `GLOSSA_APERTIUM_TAGGER` when set, else the executable beside the running program (SwiftPM
    /// builds every product into one directory, so `glossa` and the test runner both find it).
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment["GLOSSA_APERTIUM_TAGGER"], !path.isEmpty { return URL(fileURLWithPath: path) }
        guard let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let beside = URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent(executableName)
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : nil
    }

    /// `command` (stages joined by ` | `, as apertium-wblank-mode prints them) with every stage
    /// that runs `apertium-tagger` running `tagger` instead, with the same arguments.
    static func substitute(in command: String, tagger: URL) -> String {
        let quoted = "'" + tagger.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return command.components(separatedBy: " | ").map { stage in
            let trimmed = stage.drop { $0 == " " }
            guard trimmed.hasPrefix("apertium-tagger ") else { return stage }
            return quoted + trimmed.dropFirst("apertium-tagger".count)
        }.joined(separator: " | ")
    }
}
