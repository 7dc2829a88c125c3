import AccessControl
import Foundation
import SQLDatabase
import TranslationCore

/// `glossa glossary create|list|show|delete`: the glossaries `glossa serve` uses (DeepL's
/// `glossary_id`), in the same database as the keys.
enum GlossaryCommand {
    static let help = """
        USAGE: glossa glossary create --from LANG --to LANG [--name NAME] FILE
               glossa glossary list
               glossa glossary show ID
               glossa glossary delete ID

        Manages glossaries: terms whose translation is fixed. A term of the glossary found in a
        text (as a whole word; as written, or capitalised at a sentence start) comes out as its
        target term, and the words around it are translated as usual. `glossa serve` uses them
        through DeepL's glossary_id (and makes them through /v2/glossaries and /v3/glossaries);
        `glossa translate --glossary ID|FILE` uses one directly.

        FILE holds the entries, one per line: source<TAB>target (TSV), or source,target as CSV
        when the name ends in .csv. Lines are checked as DeepL checks them; an error names the line.
        `show` prints the entries as TSV (with --json: the glossary and its entries).

        OPTIONS:
              --from LANG     create: the source terms' language
              --to LANG       create: the target terms' language
              --name NAME     create: a name (default: the file's name)
              --key KEY       the glossaries of this API key (where `glossa serve` checks keys, each
                              key sees its own); default: the shared ones, which a server without
                              keys uses
              --database URL  a SQLite file or postgres://user@host/db (default: $GLOSSA_DATABASE,
                              else $XDG_DATA_HOME/glossa/glossa.db)
              --json          one JSON document on standard output
          -h, --help          show this help

        \(EnvironmentSettings.helpText(for: "glossary"))

        Exit codes:
          0  success
          1  the store failed or is unreachable, or no glossary has that ID
          2  usage error, or entries that are not well formed
        """

    /// Each subcommand's own `--help`.
    static let subcommandHelp: [String: String] = [
        "create": """
            USAGE: glossa glossary create --from LANG --to LANG [--name NAME] FILE

            Stores the entries of FILE (source<TAB>target per line; CSV when its name ends in .csv)
            as a glossary from the --from language to the --to language, and prints its id (with
            --json: its record). Entries are checked as DeepL checks them; an error names the line.

            \(commonOptions)

            \(exitCodes)
            """,
        "list": """
            USAGE: glossa glossary list

            Lists the glossaries: id, name and each direction with its number of entries, tab-separated.

            \(commonOptions)

            \(exitCodes)
            """,
        "show": """
            USAGE: glossa glossary show ID

            Prints the entries of the glossary ID as TSV (with --json: the glossary and its entries).

            \(commonOptions)

            \(exitCodes)
            """,
        "delete": """
            USAGE: glossa glossary delete ID

            Deletes the glossary ID.

            \(commonOptions)

            \(exitCodes)
            """,
    ]

    static let commonOptions = """
        OPTIONS:
              --key KEY       the glossaries of this API key (default: the shared ones)
              --database URL  a SQLite file or postgres://user@host/db (default: $GLOSSA_DATABASE,
                              else $XDG_DATA_HOME/glossa/glossa.db)
              --json          one JSON document on standard output
          -h, --help          show this help
        """

    static let exitCodes = """
        Exit codes:
          0  success
          1  the store failed or is unreachable, or no glossary has that ID
          2  usage error, or entries that are not well formed
        """

    static func run(_ argv: [String]) async -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, options: ["--from", "--to", "--name", "--key", "--database"], flags: ["--json", "--help"],
                                      aliases: ["-h": "--help", "-f": "--from", "-t": "--to"], positionals: 0...2,
                                      positionalName: "SUBCOMMAND and its argument")
        } catch {
            return Failure.report(error, usage: "glossa glossary --help")
        }
        if arguments.has("--help") {
            Console.out(arguments.positionals.first.flatMap { subcommandHelp[$0] } ?? help)
            return 0
        }
        let positionals = arguments.positionals
        let expected = ["create": 2, "list": 1, "show": 2, "delete": 2]
        guard let subcommand = positionals.first, let count = expected[subcommand] else {
            Console.error((positionals.first.map { "unknown subcommand '\($0)' for glossary; " } ?? "glossary needs a subcommand; ")
                          + "one of: create FILE, list, show ID, delete ID (see `glossa glossary --help`)")
            return ExitCode.usage.rawValue
        }
        guard positionals.count == count else {
            let problem = positionals.count > count ? "unexpected argument '\(positionals.last!)'" : "\(subcommand == "create" ? "FILE" : "ID") is missing"
            Console.error("\(problem) for glossary \(subcommand) (see `glossa glossary \(subcommand) --help`)")
            return ExitCode.usage.rawValue
        }
        let json = arguments.has("--json")
        let owner = GlossaryStore.owner(forKey: arguments.value("--key"))
        do {
            let store = try makeStore(arguments.value("--database"))
            defer { store.database.close() }
            switch subcommand {
            case "create":
                guard let from = arguments.value("--from"), let to = arguments.value("--to") else {
                    throw Arguments.UsageError(description: "create needs --from LANG and --to LANG")
                }
                let (source, target) = (try LanguageCode(parsing: from), try LanguageCode(parsing: to))
                let entries = try readEntries(positionals[1])
                let name = arguments.value("--name") ?? URL(fileURLWithPath: positionals[1]).lastPathComponent
                let made = try await store.create(name: name, owner: owner,
                                                  dictionaries: [GlossaryDictionaryEntries(source: source, target: target, entries: entries)])
                if json { Console.json(Record(made, entries: nil)) } else { Console.out(made.id) }
            case "list":
                let all = try await store.list(owner: owner)
                if json {
                    Console.json(all.map { Record($0, entries: nil) })
                } else {
                    for g in all { Console.out("\(g.id)\t\(g.name)\t" + g.dictionaries.map { "\($0.source)-\($0.target) (\($0.entryCount))" }.joined(separator: ", ")) }
                }
            case "show":
                guard let g = try await store.find(id: positionals[1], owner: owner) else { return notFound(positionals[1]) }
                var all: [GlossaryEntry] = []
                for d in g.dictionaries { all += try await store.entries(id: g.id, owner: owner, source: d.source, target: d.target) ?? [] }
                if json { Console.json(Record(g, entries: all)) } else { Console.out(GlossaryEntries.tsv(all)) }
            default:
                guard try await store.delete(id: positionals[1], owner: owner) else { return notFound(positionals[1]) }
                if !json { Console.error("deleted \(positionals[1])") }
            }
            return 0
        } catch let error as TranslationError where error.kind == .invalidArgument {
            Console.error(error.message)
            return ExitCode.usage.rawValue
        } catch {
            return Failure.report(error, usage: "glossa glossary --help")
        }
    }

    /// The glossary `reference` names for `source` → `target`: the entries of a file when one
    /// is there, else the shared glossary with that ID in the default database.
    static func load(_ reference: String, from source: LanguageCode, to target: LanguageCode) async throws -> Glossary {
        if FileManager.default.fileExists(atPath: reference) {
            return Glossary(source: source, target: target, entries: try readEntries(reference))
        }
        let store = try makeStore(nil)
        defer { store.database.close() }
        guard let entries = try await store.entries(id: reference, owner: "", source: source.base.bcp47.lowercased(),
                                                    target: target.base.bcp47.lowercased()) else {
            throw TranslationError(.notInstalled, "--glossary: no file \(reference), and no glossary \(reference) for \(source.base) to \(target.base) (see `glossa glossary list`)")
        }
        return Glossary(source: source, target: target, entries: entries)
    }

    static func readEntries(_ path: String) throws -> [GlossaryEntry] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Arguments.UsageError(description: "cannot read \(path) as UTF-8 text")
        }
        return try GlossaryEntries.parse(text, format: path.lowercased().hasSuffix(".csv") ? .csv : .tsv)
    }

    static func makeStore(_ database: String?) throws -> GlossaryStore {
        let location = try AccessOptions.location(database, environment: ProcessInfo.processInfo.environment)
        return GlossaryStore(database: Database(location, connections: 1))
    }

    private static func notFound(_ id: String) -> Int32 {
        Console.error("no glossary \(id)")
        return 1
    }

    /// The JSON of a glossary.
    struct Record: Encodable {
        struct Dictionary: Encodable { let source: String; let target: String; let entryCount: Int }
        let id: String
        let name: String
        let created: String
        let dictionaries: [Dictionary]
        let entries: [[String]]?

        init(_ g: StoredGlossary, entries: [GlossaryEntry]?) {
            id = g.id
            name = g.name
            created = g.creationTime
            dictionaries = g.dictionaries.map { Dictionary(source: $0.source, target: $0.target, entryCount: $0.entryCount) }
            self.entries = entries?.map { [$0.source, $0.target] }
        }
    }
}
