import HTTPServer
import ServerAPI
import TranslationService

/// `glossa serve [--host 127.0.0.1] [--port 8080]`: runs the HTTP service until SIGTERM/SIGINT.
/// Returns the exit status: 0 after a graceful stop, 1 when it cannot start, 2 for usage errors.
func runServe(arguments: [String], makeService: () async throws -> TranslationService) async -> Int32 {
    var host = "127.0.0.1"
    var port = 8080
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "-h", "--help":
            Console.out(serveHelp)
            return 0
        case "--host":
            guard let value = rest.popFirst(), !value.isEmpty else { return serveUsage("--host needs an address (127.0.0.1, 0.0.0.0, ::1)") }
            host = value
        case "--port":
            guard let value = rest.popFirst(), let number = Int(value), (0...65535).contains(number) else {
                return serveUsage("--port needs a number in 0...65535 (0 picks a free port)")
            }
            port = number
        default:
            return serveUsage("unknown option '\(argument)' for serve")
        }
    }
    let service: TranslationService
    do { service = try await makeService() } catch {
        Console.error("cannot start the translation service: \(error)")
        return 1
    }
    let server = GlossaServer(service: service)
    let shown = host.contains(":") ? "[\(host)]" : host
    do {
        try await server.run(host: host, port: port) { bound in
            // One parseable line: scripts and tests read the port from it when they asked for 0.
            Console.out("glossa serve: listening on http://\(shown):\(bound)")
        }
    } catch {
        Console.error("cannot serve: \(error)")
        return 1
    }
    Console.error("stopped")
    return 0
}

let serveHelp = """
    USAGE: glossa serve [--host 127.0.0.1] [--port 8080]

    Runs the HTTP service until SIGTERM or SIGINT, then stops gracefully (finishes the requests
    in flight, then stops the engines).

    Endpoints: Google Cloud Translation v2 (/language/translate/v2, /v2/detect, /v2/languages),
    LibreTranslate 1.9 (POST /translate, /detect, /languages, /frontend/settings, /spec), DeepL
    API v2 (/v2/translate, /v2/usage, /v2/languages), Apertium APy (/translate with langpair,
    /listPairs, /identifyLang), AJAX Language API v1 (/ajax/services/language/translate,
    /detect), Glossa's streaming batch (/glossa/v1/translate/stream, newline-delimited JSON as
    each result is ready) and pair list (/glossa/v1/pairs), /health, /metrics (Prometheus),
    /openapi.json (every endpoint). A path with no endpoint gets a plain-text 404. In a browser:
    the web app at /, and /overlay.js to translate any page (demo at /overlay-demo).

    OPTIONS:
      --host ADDRESS  numeric address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
      --port PORT     TCP port (default 8080; 0 picks a free port, printed on the first line)
      -h, --help      show this help

    The first line on standard output is `glossa serve: listening on http://HOST:PORT`; it is
    printed once the default pairs' pipelines are warm.

    ENVIRONMENT:
      GLOSSA_PREWARM         pairs to start at once: comma-separated (eng-spa,es-pt), `all` or
                             `none` (default: the installed directions of the default pairs)
      GLOSSA_APERTIUM_MODES  extra directories of Apertium .mode files, colon-separated

    Exit codes:
      0  stopped gracefully after SIGTERM or SIGINT
      1  cannot start (the engines failed, or the address cannot be bound)
      2  usage error (unknown option, missing value)
    """

private func serveUsage(_ message: String) -> Int32 {
    Console.error("\(message) (see `glossa serve --help`)")
    return 2
}
