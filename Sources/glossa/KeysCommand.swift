import AccessControl
import Foundation
import SQLDatabase

/// `glossa keys create|list|revoke|usage`: API keys in the key store `glossa serve` checks.
enum KeysCommand {
    static let help = """
        USAGE: glossa keys create [--name NAME] [--chars-per-month N] [--requests-per-minute N]
               glossa keys list
               glossa keys revoke KEY
               glossa keys usage [KEY] [--period YYYY-MM]

        Manages the API keys that `glossa serve --require-keys` (or --optional-keys) checks.
        A key is random (glossa_ and 43 characters) and is printed once, by `create`, on standard
        output alone; the store keeps only its SHA-256, so it can never be shown again. KEY names
        a key by its identifier (k_…), its name, or the key itself. `revoke` takes effect on every
        server sharing the store within a second. `glossa keys SUBCOMMAND --help` describes each.

        Limits: --chars-per-month caps the characters translated per calendar month (UTC), as
        each protocol counts them (code points of the texts); --requests-per-minute caps the
        rate (default: the server's --requests-per-minute, else none).

        \(commonOptions)

        \(EnvironmentSettings.helpText(for: "keys"))

        \(exitCodes)
        """

    static let commonOptions = """
        OPTIONS (every subcommand):
          --database URL  a SQLite file or postgres://user@host/db (default: $GLOSSA_DATABASE,
                          else $XDG_DATA_HOME/glossa/glossa.db)
          --config FILE   read the database from a `glossa serve` config file
          --json          one JSON document on standard output
          -h, --help      show this help
        """

    static let exitCodes = """
        Exit codes:
          0  success
          1  the key store failed or is unreachable, or no key matches
          2  usage error (unknown subcommand or option, a missing or extra argument, an ambiguous name)
        """

    private static let subcommandHelp: [String: String] = [
        "create": """
            USAGE: glossa keys create [--name NAME] [--chars-per-month N] [--requests-per-minute N]

            Makes a key and prints it once on standard output (with --json: its record with "key").
            --chars-per-month N caps its characters per calendar month (UTC); --requests-per-minute N
            its rate (default: the server's --requests-per-minute, else none).

            \(commonOptions)

            \(exitCodes)
            """,
        "list": """
            USAGE: glossa keys list

            Lists every key: identifier, name, hint (its first characters), status, limits and the
            characters used this month. Never the key itself.

            \(commonOptions)

            \(exitCodes)
            """,
        "revoke": """
            USAGE: glossa keys revoke KEY

            Revokes KEY (its identifier k_…, its name, or the key itself); every server sharing the
            store refuses it within a second.

            \(commonOptions)

            \(exitCodes)
            """,
        "usage": """
            USAGE: glossa keys usage [KEY] [--period YYYY-MM]

            Characters and requests charged this month (or in --period), for KEY or every key.

            \(commonOptions)

            \(exitCodes)
            """,
    ]

    /// Positional arguments each subcommand takes after its name.
    private static let positionals: [String: ClosedRange<Int>] = ["create": 0...0, "list": 0...0, "revoke": 1...1, "usage": 0...1]

    static func run(_ argv: [String]) async -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, options: ["--name", "--chars-per-month", "--requests-per-minute", "--database", "--config", "--period"],
                                      flags: ["--json", "--help"], aliases: ["-h": "--help"],
                                      // The subcommand and its KEY; each subcommand's own count is checked below.
                                      positionals: 0...2, positionalName: "SUBCOMMAND and KEY")
        } catch {
            return Failure.report(error, usage: "glossa keys --help")
        }
        let subcommand = arguments.positionals.first
        if arguments.has("--help") {
            Console.out(subcommand.flatMap { subcommandHelp[$0] } ?? help)
            return 0
        }
        guard let subcommand, let allowed = positionals[subcommand] else {
            Console.error(arguments.positionals.first.map { "unknown subcommand '\($0)' for keys" } ?? "keys needs a subcommand"
                          + "; one of create, list, revoke, usage (see `glossa keys --help`)")
            return ExitCode.usage.rawValue
        }
        let given = arguments.positionals.count - 1
        guard allowed.contains(given) else {
            let problem = given > allowed.upperBound ? "unexpected argument '\(arguments.positionals.last!)'" : "KEY is missing"
            Console.error("\(problem) for keys \(subcommand) (see `glossa keys \(subcommand) --help`)")
            return ExitCode.usage.rawValue
        }
        let json = arguments.has("--json")
        do {
            let store = try makeStore(arguments)
            defer { store.database.close() }
            switch subcommand {
            case "create": try await create(store, arguments, json: json)
            case "list": KeysOutput.list(try await store.usage(period: .containing(Date())), json: json)
            case "revoke": try await revoke(store, arguments.positionals[1], json: json)
            default: try await usage(store, arguments, json: json)
            }
            return 0
        } catch let error as KeysCommandError {
            Console.error(error.message)
            return error.exitCode
        } catch {
            return Failure.report(error, usage: "glossa keys --help")
        }
    }

    private static func makeStore(_ arguments: Arguments) throws -> KeyStore {
        var database = arguments.value("--database")
        if database == nil, let config = arguments.value("--config") { database = try ConfigFile.read(config).database }
        let location = try AccessOptions.location(database, environment: ProcessInfo.processInfo.environment)
        return KeyStore(database: Database(location, connections: 1))
    }

    private static func create(_ store: KeyStore, _ arguments: Arguments, json: Bool) async throws {
        let characters = try arguments.integer("--chars-per-month", in: 1...Int(Int64.max / 4))
        let requests = try arguments.integer("--requests-per-minute", in: 1...1_000_000_000)
        let (key, secret) = try await store.create(name: arguments.value("--name") ?? "", charactersPerMonth: characters,
                                                   requestsPerMinute: requests)
        if json {
            Console.json(KeysOutput.Record(key, secret: secret))
        } else {
            Console.out(secret)
            Console.error("created \(KeysOutput.label(key)) (\(KeysOutput.limits(key))); the key is printed once and cannot be shown again")
        }
    }

    private static func revoke(_ store: KeyStore, _ reference: String, json: Bool) async throws {
        let key = try await one(store, reference)
        guard let revoked = try await store.revoke(id: key.id) else { throw KeysCommandError("no key \(reference)", exitCode: 1) }
        if json { Console.json(KeysOutput.Record(revoked)) } else { Console.out("revoked \(KeysOutput.label(revoked))") }
    }

    private static func usage(_ store: KeyStore, _ arguments: Arguments, json: Bool) async throws {
        var period = BillingPeriod.containing(Date())
        if let name = arguments.value("--period") {
            guard let named = BillingPeriod.named(name) else { throw Arguments.UsageError(description: "--period takes a month as YYYY-MM, not '\(name)'") }
            period = named
        }
        if arguments.positionals.count == 2 {
            let key = try await one(store, arguments.positionals[1])
            KeysOutput.usage([try await store.usage(of: key, period: period)], json: json, single: true)
        } else {
            KeysOutput.usage(try await store.usage(period: period), json: json, single: false)
        }
    }

    /// The one key `reference` names.
    private static func one(_ store: KeyStore, _ reference: String) async throws -> APIKey {
        let found = try await store.find(reference: reference)
        guard let key = found.first else {
            // Never echo what looks like a key: it may be one, pasted into a terminal log.
            let shown = KeySecret.isWellFormed(reference) ? KeySecret.hint(reference) + "…" : reference
            throw KeysCommandError("no key matches \(shown) (see `glossa keys list`)", exitCode: 1)
        }
        guard found.count == 1 else {
            throw KeysCommandError("\(found.count) keys are named '\(reference)': give an identifier (\(found.map(\.id).joined(separator: ", ")))",
                                   exitCode: ExitCode.usage.rawValue)
        }
        return key
    }
}

/// A `glossa keys` failure with its message and exit code.
struct KeysCommandError: Error {
    let message: String
    let exitCode: Int32
    init(_ message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }
}
