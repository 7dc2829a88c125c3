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
      modes       list Apertium's analysis modes (analysers, generators, taggers), or export them
      roundtrip   translate back and forth until the text stops changing
      models      install, list and remove neural models (Argos Translate packages)
      serve       run the HTTP service
      keys        create, list and revoke API keys; their usage (`glossa keys create --name app`)
      glossary    create, list, show and delete glossaries (terms whose translation is fixed)
      help        show help for a command (`glossa help translate`)

    OPTIONS:
      -h, --help     show this help
          --version  show the version

    \(EnvironmentSettings.helpText())

    \(ExitCode.helpText)
    """

let commands: [String: (help: String, run: ([String]) async -> Int32)] = [
    "translate": (TranslateCommand.help, TranslateCommand.run),
    "detect": (DetectCommand.help, DetectCommand.run),
    "languages": (LanguagesCommand.help, LanguagesCommand.run),
    "pairs": (PairsCommand.help, PairsCommand.run),
    "modes": (ModesCommand.help, ModesCommand.run),
    "roundtrip": (RoundtripCommand.help, RoundtripCommand.run),
    "serve": (ServeEntry.help, ServeEntry.run),
    "models": (ModelsCommand.help, ModelsCommand.run),
    "keys": (KeysCommand.help, KeysCommand.run),
    "glossary": (GlossaryCommand.help, GlossaryCommand.run),
]

// A reader of our stdout may go away (`glossa translate ... | head`): exit with the documented
// code (141, see ExitCode), not by signal; OutputWatch notices even between two lines.
signal(SIGPIPE, SIG_IGN)

// Arguments arrive as bytes; Swift's CommandLine.arguments would repair invalid UTF-8 with
// U+FFFD and translate the repaired text. Refused instead, as invalid standard input is.
let argv: [String]
switch CommandLineText.arguments() {
case .valid(let arguments): argv = arguments
case .invalid(let position):
    Console.error("command-line argument \(position) is not valid UTF-8")
    exit(ExitCode.invalidInput.rawValue)
}
if argv.first != "serve" { OutputWatch.start() }

let status: Int32
switch argv.first {
case nil:
    Console.out(topHelp)
    status = ExitCode.usage.rawValue
case "-h", "--help", "--version":
    if argv.count > 1 {
        Console.error("unexpected argument '\(argv[1])' after \(argv[0]) (see `glossa --help`)")
        status = ExitCode.usage.rawValue
    } else {
        Console.out(argv[0] == "--version" ? "glossa \(version)" : topHelp)
        status = ExitCode.success.rawValue
    }
case "help":
    // `glossa help models install` is `glossa models install --help`: each command owns its help.
    if argv.count > 2, let command = commands[argv[1]] {
        status = await command.run(Array(argv.dropFirst(2)) + ["--help"])
    } else if argv.count == 2, let command = commands[argv[1]] {
        Console.out(command.help)
        status = ExitCode.success.rawValue
    } else if argv.count > 1 {
        Console.error("unknown command '\(argv[1])'; commands: \(commands.keys.sorted().joined(separator: ", ")) (see `glossa --help`)")
        status = ExitCode.usage.rawValue
    } else {
        Console.out(topHelp)
        status = ExitCode.success.rawValue
    }
case let name?:
    if let command = commands[name] {
        let arguments = Array(argv.dropFirst())
        // Help needs no configuration; anything else first checks the settings it reads.
        do {
            if !arguments.contains("--help") && !arguments.contains("-h") { try EnvironmentSettings.validate(for: name) }
            status = await command.run(arguments)
        } catch {
            status = Failure.report(error, usage: "glossa \(name) --help")
        }
    } else {
        Console.error("unknown command '\(name)'; commands: \(commands.keys.sorted().joined(separator: ", ")) (see `glossa --help`)")
        status = ExitCode.usage.rawValue
    }
}
exit(status)
