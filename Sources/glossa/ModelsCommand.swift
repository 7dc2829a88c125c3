import Foundation
import NeuralEngine
import Synchronization
import TranslationCore

/// `glossa models available | install | update | list | remove`: manages the neural models in
/// `$XDG_DATA_HOME/glossa/models`. Each subcommand parses its own arguments and has its own
/// `--help`, so `glossa models install --help` shows help rather than looking for a file.
enum ModelsCommand {
    static let help = """
        USAGE: glossa models available [--index URL] [--json]
               glossa models install NAME|PATH_OR_URL... [--index URL] [--sha256 HEX]
               glossa models install --offline DIR [NAME...]
               glossa models update [--index URL]
               glossa models list
               glossa models remove NAME

        Manages the neural models (Argos Translate `.argosmodel` packages: a CTranslate2 model and
        its SentencePiece model) in $XDG_DATA_HOME/glossa/models (default ~/.local/share/glossa/models).
        `available` lists the packages of an Argos package index (Argos Translate's public index
        unless --index or GLOSSA_MODEL_INDEX names another); `install de` installs the newest
        English↔German packages from it, `install en:de` one direction (through English when no
        package is direct), `install translate-en_de` a package by name. Downloads show a progress
        bar, go on where an interrupted one stopped, and are checked (size and SHA-256 where the
        index or --sha256 gives them, every zip entry's CRC) before anything is installed.
        `--offline DIR` installs from a folder of packages (for machines without a network).
        Glossa never downloads a model by itself: only these commands do, when you run them.
        Packages that argos-translate (LibreTranslate) installed are used in place too
        ($ARGOS_PACKAGES_DIR, default ~/.local/share/argos-translate/packages).
        Installed pairs appear in `glossa pairs`, `glossa languages` and every API, in a running
        server from its next request on; GLOSSA_PREFER=neural makes them win over Apertium pairs.
        `glossa models SUBCOMMAND --help` describes each subcommand.

        OPTIONS:
          -h, --help   show this help

        \(EnvironmentSettings.helpText(for: "models"))

        \(exitCodes)
        """

    static let installHelp = """
        USAGE: glossa models install NAME|PATH_OR_URL... [--index URL] [--sha256 HEX]
               glossa models install --offline DIR [NAME...]

        NAME is a language (`de`: both directions with English), a direction (`en:de`; `es:de`
        installs es→en and en→de when no package is direct) or a package name (`translate-en_de`),
        looked up in the package index (--index URL or file, else GLOSSA_MODEL_INDEX, else Argos
        Translate's public index); the newest version is installed. A PATH_OR_URL (a file, or an
        http(s) URL of an `.argosmodel`) installs that package. --offline DIR installs the
        packages of a folder (those NAME asks for, else all). Each download shows a progress bar
        on standard error, goes on where an interrupted one stopped, and is checked before it is
        unpacked: size and SHA-256 where the index (or --sha256) gives them, then each zip entry's
        CRC-32. A package that fails a check is deleted and nothing is installed.

        OPTIONS:
              --index URL     the package index (a URL, a file:// URL or a path)
              --sha256 HEX    the SHA-256 the package must have
              --offline DIR   install from the .argosmodel files of DIR, not from the network
          -h, --help          show this help

        \(exitCodes)
        """

    static let availableHelp = """
        USAGE: glossa models available [--index URL] [--json]

        Lists the packages of the package index: name, direction, newest version and whether it
        is installed (tab-separated), or with --json one JSON array.

        OPTIONS:
              --index URL   the package index (default: GLOSSA_MODEL_INDEX, else Argos Translate's)
              --json        one JSON array on standard output
          -h, --help        show this help

        \(exitCodes)
        """

    static let updateHelp = """
        USAGE: glossa models update [--index URL]

        Installs the newer version of each installed model that the package index has, and
        removes the older one. Packages read in place from argos-translate's folder are not
        changed (argos-translate updates them).

        OPTIONS:
              --index URL   the package index (default: GLOSSA_MODEL_INDEX, else Argos Translate's)
          -h, --help        show this help

        \(exitCodes)
        """

    static let listHelp = """
        USAGE: glossa models list

        Lists the installed models: name, pair and folder, tab-separated (packages read in place
        from argos-translate's folder too); then each folder that is not a usable package, with
        the reason.

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
          1  the package is malformed, truncated, fails its size or SHA-256 check, or is
             unsupported (the message names it), the download or the index failed (the message
             names the URL), the index has no such package, or no model has that name
          2  usage error (unknown subcommand or option, missing or extra argument)
        """

    /// The subcommands: name, help, how many positionals, what the positional is called, options.
    private static let subcommands: [String: (help: String, positionals: ClosedRange<Int>, name: String, options: Set<String>, flags: Set<String>)] = [
        "available": (availableHelp, 0...0, "ARGUMENT", ["--index"], ["--json"]),
        "install": (installHelp, 0...64, "NAME", ["--index", "--sha256", "--offline"], []),
        "update": (updateHelp, 0...0, "ARGUMENT", ["--index"], []),
        "list": (listHelp, 0...0, "ARGUMENT", [], []),
        "remove": (removeHelp, 1...1, "NAME", [], []),
    ]

    static func run(_ argv: [String]) async -> Int32 {
        guard let name = argv.first, !name.hasPrefix("-") else {
            if argv.first == "--help" || argv.first == "-h" {
                Console.out(help)
                return ExitCode.success.rawValue
            }
            return Failure.report(Arguments.UsageError(description: argv.isEmpty
                ? "give a subcommand: available, install, update, list or remove"
                : "unknown option '\(argv[0])'"), usage: "glossa models --help")
        }
        guard let subcommand = subcommands[name] else {
            return Failure.report(Arguments.UsageError(description: "unknown subcommand '\(name)'; subcommands: available, install, update, list, remove"),
                                  usage: "glossa models --help")
        }
        let args: Arguments
        do {
            args = try Arguments(Array(argv.dropFirst()), options: subcommand.options, flags: subcommand.flags.union(["--help"]),
                                 aliases: ["-h": "--help"], positionals: subcommand.positionals, positionalName: subcommand.name)
            if args.has("--help") { Console.out(subcommand.help); return ExitCode.success.rawValue }
            if name == "install", args.positionals.isEmpty, args.value("--offline") == nil {
                throw Arguments.UsageError(description: "install needs a NAME, a PATH_OR_URL or --offline DIR")
            }
        } catch { return Failure.report(error, usage: "glossa models \(name) --help") }
        let environment = ProcessInfo.processInfo.environment
        let store = ModelStore(root: ModelStore.defaultRoot())
        let index = args.value("--index") ?? environment["GLOSSA_MODEL_INDEX"] ?? PackageIndex.defaultURL
        do {
            switch name {
            case "available": try await ModelIndexCommands.available(index: index, store: store, json: args.has("--json"))
            case "install":
                if let folder = args.value("--offline") {
                    try await ModelIndexCommands.installOffline(folder, names: args.positionals, into: store)
                } else {
                    for target in args.positionals {
                        if ModelIndexCommands.isPackageLocation(target) {
                            try await install(target, sha256: args.value("--sha256"), into: store)
                        } else {
                            try await ModelIndexCommands.install(target, index: index, sha256: args.value("--sha256"), into: store)
                        }
                    }
                }
            case "update": try await ModelIndexCommands.update(index: index, store: store)
            case "list": list(store, argos: ModelStore(root: Composition.argosPackagesRoot(environment: environment)))
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

    private static func install(_ source: String, sha256: String?, into store: ModelStore) async throws {
        let bar = ProgressBar()
        // The bar's line is ended whatever happens, so an error starts on a line of its own.
        defer { bar.finish() }
        let model: InstalledModel
        if let sha256 {
            let entry = PackageIndex.Entry(code: nil, packageVersion: nil, argosVersion: nil, fromCode: "", toCode: "", fromName: nil,
                                           toName: nil, links: [source], size: nil, sha256: sha256, type: nil)
            model = try await store.install(entry) { stage, fraction in bar.show(stage == "download" ? "Downloading" : "Unpacking", fraction) }
        } else {
            model = try await store.install(from: source) { stage, fraction in
                bar.show(stage == "download" ? "Downloading" : "Unpacking", fraction)
            }
        }
        bar.finish()
        Console.out("Installed \(model.name) (\(model.metadata.fromCode) → \(model.metadata.toCode)) in \(model.directory.path)")
    }

    private static func list(_ store: ModelStore, argos: ModelStore) {
        let listing = store.list(), theirs = argos.list()
        if listing.models.isEmpty && listing.skipped.isEmpty && theirs.models.isEmpty { Console.out("No neural models installed in \(store.root.path).") }
        for m in listing.models { Console.out("\(m.name)\t\(m.metadata.fromCode)-\(m.metadata.toCode)\t\(m.directory.path)") }
        for m in theirs.models { Console.out("\(m.name)\t\(m.metadata.fromCode)-\(m.metadata.toCode)\t\(m.directory.path)\t(argos-translate's, read in place)") }
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
