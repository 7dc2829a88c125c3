import Foundation
import NeuralEngine
import Synchronization
import TranslationCore

/// `glossa models install PATH_OR_URL | list | remove NAME`: manages the neural models in
/// `$XDG_DATA_HOME/glossa/models`. Each subcommand parses its own arguments and has its own
/// `--help`, so `glossa models install --help` shows help rather than looking for a file.
enum ModelsCommand {
    static let help = """
        USAGE: glossa models install PATH_OR_URL
               glossa models list
               glossa models remove NAME

        Manages the neural models (Argos Translate `.argosmodel` packages: a CTranslate2 model and
        its SentencePiece model) in $XDG_DATA_HOME/glossa/models (default ~/.local/share/glossa/models).
        `install` reads a file or a URL you give, with a progress bar for the download and unpacking;
        Glossa never downloads a model by itself. Installed pairs appear in `glossa pairs`, `glossa
        languages` and every API; GLOSSA_PREFER=neural makes them win over Apertium pairs.
        `glossa models SUBCOMMAND --help` describes each subcommand.

        OPTIONS:
          -h, --help   show this help

        \(EnvironmentSettings.helpText(for: "models"))

        \(exitCodes)
        """

    static let installHelp = """
        USAGE: glossa models install PATH_OR_URL

        Installs an Argos Translate package (`.argosmodel`) from a file or an http(s) URL into
        $XDG_DATA_HOME/glossa/models, showing the download and the unpacking on standard error.
        A failed download names the URL and installs nothing.

        OPTIONS:
          -h, --help   show this help

        \(exitCodes)
        """

    static let listHelp = """
        USAGE: glossa models list

        Lists the installed models: name, pair and folder, tab-separated; then each folder that
        is not a usable package, with the reason.

        OPTIONS:
          -h, --help   show this help

        \(exitCodes)
        """

    static let removeHelp = """
        USAGE: glossa models remove NAME

        Removes the installed model NAME (a name from `glossa models list`).

        OPTIONS:
          -h, --help   show this help

        \(exitCodes)
        """

    static let exitCodes = """
        Exit codes:
          0  success
          1  the package is malformed, truncated or unsupported (the message names the file), the
             download failed (the message names the URL), or no model has that name
          2  usage error (unknown subcommand or option, missing or extra argument)
        """

    /// The subcommands: name, help, how many positionals, what the positional is called.
    private static let subcommands: [String: (help: String, positionals: ClosedRange<Int>, name: String)] = [
        "install": (installHelp, 1...1, "PATH_OR_URL"),
        "list": (listHelp, 0...0, "ARGUMENT"),
        "remove": (removeHelp, 1...1, "NAME"),
    ]

    static func run(_ argv: [String]) async -> Int32 {
        guard let name = argv.first, !name.hasPrefix("-") else {
            if argv.first == "--help" || argv.first == "-h" {
                Console.out(help)
                return ExitCode.success.rawValue
            }
            return Failure.report(Arguments.UsageError(description: argv.isEmpty
                ? "give a subcommand: install, list or remove"
                : "unknown option '\(argv[0])'"), usage: "glossa models --help")
        }
        guard let subcommand = subcommands[name] else {
            return Failure.report(Arguments.UsageError(description: "unknown subcommand '\(name)'; subcommands: install, list, remove"),
                                  usage: "glossa models --help")
        }
        let args: Arguments
        do {
            args = try Arguments(Array(argv.dropFirst()), options: [], flags: ["--help"], aliases: ["-h": "--help"],
                                 positionals: subcommand.positionals, positionalName: subcommand.name)
        } catch { return Failure.report(error, usage: "glossa models \(name) --help") }
        if args.has("--help") { Console.out(subcommand.help); return ExitCode.success.rawValue }
        let store = ModelStore(root: ModelStore.defaultRoot())
        do {
            switch name {
            case "install": try await install(args.positionals[0], into: store)
            case "list": list(store)
            default:
                try store.remove(args.positionals[0])
                Console.out("Removed \(args.positionals[0]).")
            }
            return ExitCode.success.rawValue
        } catch let error as TranslationError {
            Console.error(error.message)
            return ExitCode.failure.rawValue
        } catch {
            Console.error("\(error)")
            return ExitCode.failure.rawValue
        }
    }

    private static func install(_ source: String, into store: ModelStore) async throws {
        let bar = ProgressBar()
        // The bar's line is ended whatever happens, so an error starts on a line of its own.
        defer { bar.finish() }
        let model = try await store.install(from: source) { stage, fraction in
            bar.show(stage == "download" ? "Downloading" : "Unpacking", fraction)
        }
        bar.finish()
        Console.out("Installed \(model.name) (\(model.metadata.fromCode) → \(model.metadata.toCode)) in \(model.directory.path)")
    }

    private static func list(_ store: ModelStore) {
        let listing = store.list()
        if listing.models.isEmpty && listing.skipped.isEmpty { Console.out("No neural models installed in \(store.root.path).") }
        for m in listing.models { Console.out("\(m.name)\t\(m.metadata.fromCode)-\(m.metadata.toCode)\t\(m.directory.path)") }
        for (name, reason) in listing.skipped.sorted(by: { $0.key < $1.key }) { Console.out("\(name)\tunusable: \(reason)") }
    }
}

/// A one-line progress bar on standard error (redrawn with a carriage return).
final class ProgressBar: Sendable {
    // Callbacks may come from another thread; the last line drawn is kept under a mutex.
    private let last = Mutex("")

    func show(_ label: String, _ fraction: Double) {
        let f = min(max(fraction, 0), 1)
        let width = 30
        let filled = Int(f * Double(width))
        let line = "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(Int(f * 100))%"
        let changed = last.withLock { previous in
            defer { previous = line }
            return previous != line
        }
        if changed { FileHandle.standardError.write(Data(("\r" + line).utf8)) }
    }

    /// Ends the bar's line (once; later calls do nothing).
    func finish() {
        let drawn = last.withLock { previous in
            defer { previous = "" }
            return !previous.isEmpty
        }
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
