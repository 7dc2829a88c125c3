import Foundation

/// The `glossa` command: a dispatcher over the subcommands. Wiring only; the work is in the
/// library targets.
let version = "0.1.0"

let topHelp = """
    USAGE: glossa <command> [options]

    Glossa: offline translation and language detection.

    COMMANDS:
      translate   translate text or standard input (`glossa translate --to es "Good morning"`)
      detect      detect the language of text
      languages   list the supported languages with localized names
      pairs       list every translation direction, direct or through a pivot
      roundtrip   translate back and forth until the text stops changing
      models      install, list and remove neural models (Argos Translate packages)
      serve       run the HTTP service
      help        show help for a command (`glossa help translate`)

    OPTIONS:
      -h, --help     show this help
          --version  show the version

    ENVIRONMENT:
      GLOSSA_APERTIUM_MODES  extra directories of Apertium .mode files, colon-separated
      GLOSSA_PREFER          which engine serves a pair both serve: apertium (default) or neural
      XDG_DATA_HOME          neural models live in $XDG_DATA_HOME/glossa/models
                             (default ~/.local/share/glossa/models)

    \(ExitCode.helpText)
    """

let commands: [String: (help: String, run: ([String]) async -> Int32)] = [
    "translate": (TranslateCommand.help, TranslateCommand.run),
    "detect": (DetectCommand.help, DetectCommand.run),
    "languages": (LanguagesCommand.help, LanguagesCommand.run),
    "pairs": (PairsCommand.help, PairsCommand.run),
    "roundtrip": (RoundtripCommand.help, RoundtripCommand.run),
    "serve": (ServeEntry.help, ServeEntry.run),
    "models": (modelsHelp, { await runModels(arguments: $0) }),
]

// A reader of our stdout may go away (`glossa translate ... | head`): exit quietly, not by signal.
signal(SIGPIPE, SIG_IGN)

var argv = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch argv.first {
case nil, "-h", "--help":
    Console.out(topHelp)
    status = argv.isEmpty ? ExitCode.usage.rawValue : ExitCode.success.rawValue
case "--version":
    Console.out("glossa \(version)")
    status = 0
case "help":
    if argv.count > 1, let command = commands[argv[1]] {
        Console.out(command.help)
        status = 0
    } else {
        Console.out(topHelp)
        status = argv.count > 1 ? ExitCode.usage.rawValue : 0
    }
case let name?:
    if let command = commands[name] {
        status = await command.run(Array(argv.dropFirst()))
    } else {
        Console.error("unknown command '\(name)'; commands: \(commands.keys.sorted().joined(separator: ", ")) (see `glossa --help`)")
        status = ExitCode.usage.rawValue
    }
}
exit(status)
