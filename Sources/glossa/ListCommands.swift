import Foundation
import TranslationCore
import TranslationService

/// `glossa languages [--target LANG] [--json]`
enum LanguagesCommand {
    static let help = """
        USAGE: glossa languages [--target LANG] [--json]

        Lists every language Glossa translates from or into, with its name in LANG (default
        English): code and name, tab-separated, sorted by name. Google's
        /language/translate/v2/languages lists the same languages less those nothing translates
        into (`--json` marks each `from` and `into`). Engine variants without a name of their own
        (ca-valencia-x-uni) are in `glossa pairs`.

        Every installed pair is first checked to work (once: the verdicts are cached), so a
        broken pair adds no language.

        OPTIONS:
              --target LANG  language to show the names in (es shows `inglés` for en)
              --json         a JSON array of {language, name, from, into}
          -h, --help         show this help

        \(EnvironmentSettings.helpText(for: "languages"))

        \(ExitCode.helpText)
        """

    struct Entry: Encodable { var language: String; var name: String; var from: Bool; var into: Bool }

    static func run(_ argv: [String]) async -> Int32 {
        let display: LanguageCode
        let args: Arguments
        do {
            args = try Arguments(argv, options: ["--target"], flags: ["--json", "--help"], aliases: ["-h": "--help"])
            if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
            display = try args.value("--target").map { try LanguageCode(parsing: $0) } ?? "en"
        } catch { return Failure.report(error, usage: "glossa languages --help") }
        let service: TranslationService
        do { service = try await Composition.makeService(probe: true) } catch { return Failure.report(error) }
        let sources = Set(service.sourceLanguages()), targets = Set(service.targetLanguages())
        let entries = service.listedLanguages()
            .map { Entry(language: $0.bcp47, name: $0.displayName(in: display), from: sources.contains($0), into: targets.contains($0)) }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        await service.shutdown()
        if args.has("--json") {
            Console.json(entries)
        } else {
            entries.forEach { Console.out("\($0.language)\t\($0.name)") }
        }
        return ExitCode.success.rawValue
    }
}

/// `glossa pairs [--json]`
enum PairsCommand {
    static let help = """
        USAGE: glossa pairs [--json]

        Lists every translation direction: source, target, `direct` or `pivot via` the languages
        in between (up to three), and the engines, tab-separated; then each installed pair that
        does not work on this machine, as `unavailable: REASON`. Every installed pair is first
        checked to work (once: the verdicts are cached), so the list holds exactly what
        translates.

        OPTIONS:
              --json      a JSON array of {source, target, kind, path, engines} (kind `direct`,
                          `pivot` or `unavailable`, the last with a `reason`)
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
        var reason: String?
    }

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        do {
            args = try Arguments(argv, options: [], flags: ["--json", "--help"], aliases: ["-h": "--help"])
        } catch { return Failure.report(error, usage: "glossa pairs --help") }
        if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
        let service: TranslationService
        do { service = try await Composition.makeService(probe: true) } catch { return Failure.report(error) }
        var entries = service.directions().map { d in
            Entry(source: d.source.bcp47, target: d.target.bcp47, kind: d.route.isPivot ? "pivot" : "direct",
                  path: [d.source.bcp47] + d.route.pivots.map(\.bcp47) + [d.target.bcp47], engines: d.route.steps.map(\.engine))
        }
        entries += await service.unavailablePairs().map { u in
            Entry(source: u.pair.source.bcp47, target: u.pair.target.bcp47, kind: "unavailable",
                  path: [u.pair.source.bcp47, u.pair.target.bcp47], engines: [u.engine], reason: u.reason)
        }
        await service.shutdown()
        if args.has("--json") {
            Console.json(entries)
        } else {
            for e in entries {
                let kind: String
                switch e.kind {
                case "pivot": kind = "pivot via \(e.path.dropFirst().dropLast().joined(separator: ", "))"
                case "unavailable": kind = "unavailable: \(e.reason ?? "")"
                default: kind = "direct"
                }
                Console.out("\(e.source)\t\(e.target)\t\(kind)\t\(e.engines.joined(separator: "+"))")
            }
        }
        return ExitCode.success.rawValue
    }
}
