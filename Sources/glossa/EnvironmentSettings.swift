import Foundation
import SQLDatabase
import TranslationCore

/// One setting `glossa` reads from the environment.
struct EnvironmentSetting: Sendable {
    /// The variable (`GLOSSA_PREFER`).
    let name: String
    /// What it does, the values it takes and its default, for `--help` (lines of at most ~70
    /// characters; the table indents them).
    let help: [String]
    /// The commands that read it (directly or through the engines they start).
    let commands: Set<String>
    /// Why `value` is refused (saying what is accepted), or nil when it is accepted. An empty
    /// value never reaches it: empty means unset, so `GLOSSA_PREFER= glossa …` takes the default.
    let check: @Sendable (String) -> String?
}

/// Every setting the `glossa` binary reads from the environment, in one table: the `--help`
/// texts list them from here, and each command checks the ones it reads before doing anything
/// else, so a mistyped value stops it at once with a clear message instead of being ignored.
///
/// The engines read some of these variables themselves (the neural engine's compute backend
/// is made from `GLOSSA_FLOAT_GEMM` and `GLOSSA_INT8_KERNEL` in `Composition.neuralSettings`,
/// and `CPUBackend.default` reads them for the tools); this table holds the values those
/// readers accept, and `tests/test_cli_habits.py` checks that every `GLOSSA_*`
/// variable read anywhere under `Sources/` (but the SDK's) is listed here.
enum EnvironmentSettings {
    /// The commands that build the translation engines.
    private static let engineCommands: Set<String> = ["translate", "roundtrip", "languages", "pairs", "serve"]

    static let all: [EnvironmentSetting] = [
        EnvironmentSetting(
            name: "GLOSSA_PREFER",
            help: ["which engine serves a pair both serve: apertium (default) or neural"],
            commands: engineCommands, check: oneOf(["apertium", "neural"])),
        EnvironmentSetting(
            name: "GLOSSA_PREWARM",
            help: ["pairs `glossa serve` starts in the background, before it says ready:",
                   "comma-separated pair names (eng-spa,es-pt), `all` or `none` (default:",
                   "the installed directions of the default pairs); naming a pair that is",
                   "not installed is an error"],
            commands: ["serve"], check: prewarm),
        EnvironmentSetting(
            name: "GLOSSA_MAX_WARM",
            help: ["Apertium pools (a pair, or an analysis mode) kept warm besides the",
                   "GLOSSA_PREWARM pairs: past it the least recently used one stops its",
                   "processes until its next request; an integer in 1…100000, or `all`",
                   "(default 8; a pair's pipeline holds 30-250 MB)"],
            commands: engineCommands, check: integerOr("all", 1...100_000)),
        EnvironmentSetting(
            name: "GLOSSA_PIPELINES",
            help: ["most Apertium pipelines per pair in `glossa serve`, hence most",
                   "requests of one pair translated at once; each pipeline's stages are",
                   "separate processes, so one already keeps about two cores busy: an",
                   "integer in 1…64 (default 2)"],
            commands: ["serve"], check: integer(1...64)),
        EnvironmentSetting(
            name: "GLOSSA_IDLE_CLOSE",
            help: ["seconds an Apertium pool (but the GLOSSA_PREWARM pairs') may sit",
                   "unused before its processes stop, until its next request; an integer",
                   "in 1…31536000, or `never` (default 600)"],
            commands: engineCommands, check: integerOr("never", 1...31_536_000)),
        EnvironmentSetting(
            name: "GLOSSA_MAX_DOCUMENT_MB",
            help: ["largest document `glossa serve` translates, in megabytes (10^6",
                   "bytes): an integer in 1…4096 (default 32, as APy); upload bodies may",
                   "be that plus 1 MiB (Google v3's base64: 4/3 of it), and",
                   "`glossa serve --print-body-limit` prints the largest body a proxy in",
                   "front must let through"],
            commands: ["serve"], check: integer(1...4096)),
        EnvironmentSetting(
            name: "GLOSSA_TRANSLATION_CACHE_MB",
            help: ["megabytes of translated segments kept, so that a segment sent again",
                   "(the same text, engine, pair and options) is not translated again;",
                   "per process, emptied when the working pairs change; an integer in",
                   "0…65536, 0 keeps none (default 64)"],
            commands: engineCommands, check: integer(0...65_536)),
        EnvironmentSetting(
            name: "GLOSSA_APERTIUM_MODES",
            help: ["extra directories of Apertium .mode files, colon-separated"],
            commands: engineCommands, check: directories),
        EnvironmentSetting(
            name: "GLOSSA_PROBE_CACHE",
            help: ["file keeping the Apertium pairs' probe verdicts, or `off` (default",
                   "$XDG_CACHE_HOME/glossa/apertium-probes.json, else",
                   "~/.cache/glossa/apertium-probes.json)"],
            commands: engineCommands, check: { _ in nil }),
        EnvironmentSetting(
            name: "GLOSSA_APERTIUM_TAGGER",
            help: ["program run in place of apertium-tagger (default:",
                   "glossa-apertium-tagger beside glossa)"],
            commands: engineCommands, check: executable),
        EnvironmentSetting(
            name: "GLOSSA_FLOAT_GEMM",
            help: ["neural float32 matrix products: packed (default, Glossa's kernels)",
                   "or openblas"],
            commands: engineCommands, check: oneOf(["packed", "openblas"])),
        EnvironmentSetting(
            name: "GLOSSA_INT8_KERNEL",
            help: ["neural int8 kernels: auto (default: AVX-512 VNNI when the CPU has",
                   "it, else AVX2) or avx2"],
            commands: engineCommands, check: oneOf(["auto", "avx2"])),
        EnvironmentSetting(
            name: "GLOSSA_NEURAL_WORKERS",
            help: ["neural batches translated at once (CTranslate2's inter_threads;", "default 1)"],
            commands: engineCommands, check: integer(1...256)),
        EnvironmentSetting(
            name: "GLOSSA_NEURAL_THREADS",
            help: ["threads per neural batch (intra_threads; default 1), set once", "per worker"],
            commands: engineCommands, check: integer(1...256)),
        EnvironmentSetting(
            name: "GLOSSA_NEURAL_BATCHING",
            help: ["on (default): concurrent requests' sentences share neural batches;", "off: each request alone"],
            commands: engineCommands, check: oneOf(["on", "off"])),
        EnvironmentSetting(
            name: "GLOSSA_NEURAL_QUEUE",
            help: ["neural sentences that may wait before requests get 503 (default", "4096)"],
            commands: engineCommands, check: integer(1...1_000_000)),
        EnvironmentSetting(
            name: "GLOSSA_NEURAL_IDLE_UNLOAD",
            help: ["seconds a neural model may go unused before its memory is given back", "(default 600; 0 keeps models loaded)"],
            commands: engineCommands, check: integer(0...1_000_000)),
        EnvironmentSetting(
            name: "GLOSSA_NEURAL_BEAM",
            help: ["beam size of neural requests that set none (default 4, as Argos", "Translate; 1: greedy search, fastest)"],
            commands: engineCommands, check: integer(1...64)),
        EnvironmentSetting(
            name: "GLOSSA_DATABASE",
            help: ["the key store and the glossaries when --database and the config",
                   "file name none: a SQLite file or postgres://user@host/db (default:",
                   "$XDG_DATA_HOME/glossa/glossa.db)"],
            commands: ["serve", "keys", "glossary", "translate"], check: database),
        EnvironmentSetting(
            name: "GLOSSA_LOAD_ONLY",
            help: ["only these languages, comma-separated (en,de,fr), in every engine",
                   "(what serve --load-only sets; LibreTranslate's LT_LOAD_ONLY is read too)"],
            commands: engineCommands, check: { _ in nil }),
        EnvironmentSetting(
            name: "ARGOS_PACKAGES_DIR",
            help: ["argos-translate's package folder, read in place (default",
                   "$XDG_DATA_HOME/argos-translate/packages, as argos-translate uses)"],
            commands: engineCommands.union(["models"]), check: { _ in nil }),
        EnvironmentSetting(
            name: "GLOSSA_MODEL_INDEX",
            help: ["the Argos package index `models available|install NAME|update` read",
                   "(a URL or a file; default Argos Translate's public index)"],
            commands: ["models"], check: { _ in nil }),
        EnvironmentSetting(
            name: "XDG_DATA_HOME",
            help: ["neural models live in $XDG_DATA_HOME/glossa/models, the key store in",
                   "$XDG_DATA_HOME/glossa/glossa.db (default ~/.local/share/glossa; a",
                   "relative path is ignored, as the XDG specification says)"],
            commands: engineCommands.union(["models", "keys"]), check: { _ in nil }),
    ]

    /// The `ENVIRONMENT:` block of `command`'s help (every setting for nil: `glossa --help`).
    static func helpText(for command: String? = nil) -> String {
        let settings = all.filter { command == nil || $0.commands.contains(command!) }
        let width = (settings.map(\.name.count).max() ?? 0) + 2
        var lines = ["ENVIRONMENT:"]
        for setting in settings {
            for (index, line) in setting.help.enumerated() {
                let head = index == 0 ? setting.name : ""
                lines.append("  " + head + String(repeating: " ", count: width - head.count) + line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The first refused setting that `command` reads, as a usage error naming the variable,
    /// the value and what is accepted.
    static func validate(for command: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        for setting in all where setting.commands.contains(command) {
            guard let value = environment[setting.name], !value.isEmpty, let problem = setting.check(value) else { continue }
            throw Arguments.UsageError(description: "\(setting.name)='\(value)' is not accepted: \(problem)")
        }
    }

    // MARK: Checks

    private static func integer(_ range: ClosedRange<Int>) -> @Sendable (String) -> String? {
        { value in Int(value).map(range.contains) == true ? nil : "give an integer in \(range.lowerBound)…\(range.upperBound)" }
    }

    private static func integerOr(_ word: String, _ range: ClosedRange<Int>) -> @Sendable (String) -> String? {
        { value in
            value == word || Int(value).map(range.contains) == true ? nil
                : "give an integer in \(range.lowerBound)…\(range.upperBound), or \(word)"
        }
    }

    private static func oneOf(_ values: [String]) -> @Sendable (String) -> String? {
        { value in values.contains(value) ? nil : "give one of \(values.joined(separator: ", "))" }
    }

    /// `all`, `none`, or pair names; whether each pair is installed is checked when the engines
    /// are up (``Composition/warmPairs(installed:environment:)``).
    private static let prewarm: @Sendable (String) -> String? = { value in
        let setting = value.trimmingCharacters(in: .whitespaces)
        if setting == "all" || setting == "none" { return nil }
        for name in setting.split(separator: ",", omittingEmptySubsequences: false) {
            let name = name.trimmingCharacters(in: .whitespaces)
            if (try? LanguagePair(parsing: name)) == nil {
                return "'\(name)' is not a pair name; give `all`, `none` or pair names such as eng-spa,es-pt"
            }
        }
        return nil
    }

    private static let directories: @Sendable (String) -> String? = { value in
        for path in value.split(separator: ":") {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: String(path), isDirectory: &isDirectory) || !isDirectory.boolValue {
                return "'\(path)' is not a directory; give directories of .mode files, colon-separated"
            }
        }
        return nil
    }

    private static let database: @Sendable (String) -> String? = { value in
        do { _ = try DatabaseLocation(parsing: value) } catch { return "\(error)" }
        return nil
    }

    private static let executable: @Sendable (String) -> String? = { value in
        FileManager.default.isExecutableFile(atPath: value) ? nil : "it is not an executable file"
    }
}
