import AccessControl
import Documents
import Foundation
import HTTPServer
import SQLDatabase
import ServerAPI
import TranslationService

/// `glossa serve [--host 127.0.0.1] [--port 8080]`: runs the HTTP service until SIGTERM/SIGINT.
/// Returns the exit status: 0 after a graceful stop, 1 when it cannot start, 2 for usage errors.
///
/// Order of checks, cheapest and most likely to fail first: arguments and environment (before
/// this is called), the engines, the address (bound before the warm-up, so a busy port is
/// reported at once), then the warm-up, then the "listening" line.
func runServe(arguments: [String], makeServing: () async throws -> Composition.Serving) async -> Int32 {
    var host: String?
    var port: Int?
    var http = HTTPServerConfiguration()
    var allowFetch: Set<String> = []
    var access = AccessOptions()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "-h", "--help":
            Console.out(serveHelp)
            return 0
        case "--host":
            guard let value = rest.popFirst(), isListenAddress(value) else {
                return serveUsage("--host needs a numeric IPv4 or IPv6 address or localhost (127.0.0.1, 0.0.0.0, ::1)")
            }
            host = value
        case "--port":
            guard let value = rest.popFirst(), let number = Int(value), (0...65535).contains(number) else {
                return serveUsage("--port needs a number in 0...65535 (0 picks a free port)")
            }
            port = number
        case "--drain-seconds":
            guard let value = rest.popFirst(), let seconds = Double(value), seconds >= 0, seconds <= 3600 else {
                return serveUsage("--drain-seconds needs a number of seconds in 0...3600")
            }
            http.drainTimeoutSeconds = seconds
        case "--max-connections":
            guard let value = rest.popFirst(), let number = Int(value), (1...1_000_000).contains(number) else {
                return serveUsage("--max-connections needs a number in 1...1000000")
            }
            http.connectionLimit = number
        case "--max-connections-per-ip":
            guard let value = rest.popFirst(), let number = Int(value), (0...1_000_000).contains(number) else {
                return serveUsage("--max-connections-per-ip needs a number in 0...1000000 (0: no limit)")
            }
            http.connectionLimitPerAddress = number
        case "--print-body-limit":
            // For a proxy's configuration (scripts/cluster.sh writes nginx's client_max_body_size).
            var configuration = ServerAPIConfiguration()
            configuration.documentLimits.maxBytes = documentBytes(ProcessInfo.processInfo.environment)
            Console.out(String(configuration.largestBodyBytes))
            return 0
        case "--load-only":
            guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                return serveUsage("--load-only needs languages, comma-separated (en,de,fr)")
            }
            // Read by Composition when it makes the engines, as LibreTranslate's LT_LOAD_ONLY.
            setenv("GLOSSA_LOAD_ONLY", value, 1)
        case "--allow-fetch":
            guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                return serveUsage("--allow-fetch needs a host name (example.org), several comma-separated, or * for any")
            }
            for host in value.split(separator: ",") { allowFetch.insert(host.trimmingCharacters(in: .whitespaces).lowercased()) }
        default:
            do {
                guard try access.consume(argument, &rest) else { return serveUsage("unknown option '\(argument)' for serve") }
            } catch {
                return serveUsage("\(error)")
            }
        }
    }
    // Keys, quotas and limits: settings first (a bad one is a usage error before any engine
    // starts); with nothing to check, no database is opened until a glossary is made or used.
    var api: ServerAPIConfiguration
    do {
        try access.loadConfig()
        if let configured = access.host, !isListenAddress(configured) {
            return serveUsage("the config file's host needs a numeric IPv4 or IPv6 address or localhost")
        }
        let environment = ProcessInfo.processInfo.environment
        api = try await ServerAPIConfiguration(access: AccessSetup.make(access, environment: environment))
        api.documentLimits.maxBytes = documentBytes(environment)
        // Glossaries live in the key store's database: the same one, or where it would be.
        let database = try api.access?.store?.database ?? Database(AccessOptions.location(access.database, environment: environment))
        api.glossaries = GlossaryStore(database: database)
        // Document jobs too where the database is PostgreSQL, which replicas share, so a status
        // poll or download that reaches another replica finds the job; else in memory.
        if database.flavor == .postgres { api.documentJobs = DocumentJobTable(database: database) }
    } catch {
        return serveUsage("\(error)")
    }
    let serving: Composition.Serving
    do { serving = try await makeServing() } catch let error as Arguments.UsageError {
        return serveUsage(error.description)
    } catch {
        Console.error("cannot start the translation service: \(error)")
        return 1
    }
    // APy's analysis endpoints and /stats read the Apertium engine; /translatePage fetches only
    // from the hosts the operator allowed.
    api.languageModes = serving.apertium
    api.pipelines = serving.apertium
    api.allowedFetchHosts = allowFetch
    let server = GlossaServer(service: serving.service, http: http, api: api)
    let address = host ?? access.host ?? "127.0.0.1"
    let shown = address.contains(":") ? "[\(address)]" : address
    do {
        try await server.run(host: address, port: port ?? access.port ?? 8080, warmUp: serving.warmUp) { bound in
            // One parseable line: scripts and tests read the port from it when they asked for 0.
            Console.out("glossa serve: listening on http://\(shown):\(bound)")
        } onReady: {
            // The second line: every installed pair checked and the warm pairs started.
            Console.out("glossa serve: ready")
        } log: { Console.error($0) }
    } catch {
        Console.error("cannot serve: \(error)")
        await api.access?.finish()
        return 1
    }
    // Reservations of busy keys are billed and given back before the database is let go.
    await api.access?.finish()
    Console.error("stopped")
    return 0
}

/// The largest document, from GLOSSA_MAX_DOCUMENT_MB (checked before serve runs), else APy's 32 MB.
private func documentBytes(_ environment: [String: String]) -> Int {
    environment["GLOSSA_MAX_DOCUMENT_MB"].flatMap { Int($0) }.map { $0 * 1_000_000 } ?? DocumentTranslator.Limits().maxBytes
}

let serveHelp = """
    USAGE: glossa serve [--host 127.0.0.1] [--port 8080] [--drain-seconds 20]
                        [--max-connections 1024] [--max-connections-per-ip 256]
                        [--allow-fetch HOST[,HOST…]] [--load-only LANGS] [--config FILE] [--print-body-limit]
                        [--require-keys[=PROTOCOLS]] [--optional-keys[=PROTOCOLS]] [--database URL]

    Runs the HTTP service until SIGTERM or SIGINT, then stops in stages: it stops accepting,
    lets the requests in flight finish for up to --drain-seconds (answers then carry
    `Connection: close`), cancels what is left down to the engines (each such request gets a 503
    in its protocol's error format), then stops the engines and exits 0. From the signal to the
    exit takes at most the drain time plus 10 seconds (usually about 1 s more than the drain when
    requests had to be cancelled). A second signal skips the rest of the drain.

    \(DialectRegistry.standard.endpointsHelp())

    OPTIONS:
      --host ADDRESS  numeric IPv4 or IPv6 address to listen on, or localhost (127.0.0.1)
                      (default 127.0.0.1; 0.0.0.0 or :: for every interface)
      --port PORT     TCP port (default 8080; 0 picks a free port, printed on the first line)
      --drain-seconds N
                      on shutdown, how long requests in flight may finish (default 20)
      --max-connections N
                      simultaneous connections (default 1024); at the limit a newcomer replaces a
                      connection idle between requests or stalled in its request head, or is
                      refused at once
      --max-connections-per-ip N
                      simultaneous connections from one address (default 256; 0: no limit, for
                      use behind a reverse proxy)
      --load-only LANGS
                      only these languages, comma-separated (en,de,fr), in every engine:
                      LibreTranslate's --load-only (its LT_LOAD_ONLY is read too)
      --allow-fetch HOST
                      let APy's /translatePage fetch pages from HOST (repeatable, or
                      comma-separated; * for any host). Default: fetching is off, since a
                      server that fetches any URL is a way into the network it runs in
      --print-body-limit
                      print the largest request body, in bytes, that any endpoint takes with
                      the current GLOSSA_MAX_DOCUMENT_MB, and exit: a proxy in front must let
                      that much through (scripts/cluster.sh sets nginx's client_max_body_size)
      -h, --help      show this help

    The address is bound first (a busy port or a bad address fails at once, exit 1) and the
    server answers requests from then on; the warm pairs' pipelines start (GLOSSA_PREWARM) and
    the installed pairs are checked in the background.

    Hostile clients: a request's head must arrive within 10 s of its request line and its body
    within 60 s of its head (trickling a byte at a time does not extend them); a connection waits
    at most 30 s for its next request. Ambiguous framing (two Content-Lengths, Content-Length with
    Transfer-Encoding, a Transfer-Encoding other than chunked, HTTP/1.1 without Host) gets one
    400 or 501 and the connection is closed. A client that hangs up cancels its request's work.

    The first line on standard output is `glossa serve: listening on http://HOST:PORT`, printed
    as soon as the address is bound. The second, `glossa serve: ready`, follows once the warm
    pairs' pipelines are up and every installed pair has been checked to work (each translates a
    test sentence once; the verdicts are kept in the probe cache, so later starts only check what
    changed). Until then /glossa/v1/health says how far the check has got ("checking"), a pair
    not checked yet is checked before its first translation, and a pair found not to work
    leaves every list and route within a second; /glossa/v1/health says why.

    \(EnvironmentSettings.helpText(for: "serve"))

    \(accessHelp)

    Exit codes:
      0  stopped gracefully after SIGTERM or SIGINT
      1  cannot start (the engines failed, or the address cannot be bound)
      2  usage error (unknown option, missing value, a refused environment setting)
    """

/// What the HTTP server binds: a numeric IPv4 or IPv6 address, or `localhost` (no resolver is
/// consulted, so a host name would be a guess).
private func isListenAddress(_ text: String) -> Bool {
    if text.lowercased() == "localhost" { return true }
    var v4 = in_addr(), v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
}

private func serveUsage(_ message: String) -> Int32 {
    Console.error("\(message) (see `glossa serve --help`)")
    return 2
}
