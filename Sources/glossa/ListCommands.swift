import Foundation
import TranslationCore
import TranslationService

/// `glossa languages [--target LANG] [--json]`
enum LanguagesCommand {
    static let help = """
        USAGE: glossa languages [--target LANG] [--json]

        Lists every language Glossa translates from or into, with its name in LANG (default
        English): code and name, tab-separated, sorted by name.

        OPTIONS:
              --target LANG  language to show the names in (es shows `inglés` for en)
              --json         a JSON array of {language, name}
          -h, --help         show this help

        \(EnvironmentSettings.helpText(for: "languages"))

        \(ExitCode.helpText)
        """

    struct Entry: Encodable { var language: String; var name: String }

    static func run(_ argv: [String]) async -> Int32 {
        let display: LanguageCode
        let args: Arguments
        do {
            args = try Arguments(argv, options: ["--target"], flags: ["--json", "--help"], aliases: ["-h": "--help"])
            if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
            display = try args.value("--target").map { try LanguageCode(parsing: $0) } ?? "en"
        } catch { return Failure.report(error, usage: "glossa languages --help") }
        let service: TranslationService
        do { service = try await Composition.makeService() } catch { return Failure.report(error) }
        let entries = service.languages()
            .map { Entry(language: $0.bcp47, name: $0.displayName(in: display)) }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        await service.shutdown()
        if args.has("--json") { Console.json(entries) } else { entries.forEach { Console.out("\($0.language)\t\($0.name)") } }
        return ExitCode.success.rawValue
    }
}

/// `glossa pairs [--json]`
enum PairsCommand {
    static let help = """
        USAGE: glossa pairs [--json]

        Lists every translation direction: source, target, `direct` or `pivot` (with the path),
        and the engine, tab-separated.

        OPTIONS:
              --json      a JSON array of {source, target, kind, path, engines}
          -h, --help      show this help

        \(EnvironmentSettings.helpText(for: "pairs"))

        \(ExitCode.helpText)
        """

    struct Entry: Encodable {
        var source: String
        var target: String
        var kind: String
        var path: [String]
        var engines: [String]
    }

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        do {
            args = try Arguments(argv, options: [], flags: ["--json", "--help"], aliases: ["-h": "--help"])
        } catch { return Failure.report(error, usage: "glossa pairs --help") }
        if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
        let service: TranslationService
        do { service = try await Composition.makeService() } catch { return Failure.report(error) }
        let entries = service.routes().map { route in
            Entry(source: route.source.bcp47, target: route.target.bcp47, kind: route.isPivot ? "pivot" : "direct",
                  path: route.path.map(\.bcp47), engines: route.steps.map(\.engine))
        }
        await service.shutdown()
        if args.has("--json") {
            Console.json(entries)
        } else {
            for e in entries {
                let kind = e.kind == "pivot" ? "pivot via \(e.path[1])" : "direct"
                Console.out("\(e.source)\t\(e.target)\t\(kind)\t\(e.engines.joined(separator: "+"))")
            }
        }
        return ExitCode.success.rawValue
    }
}
