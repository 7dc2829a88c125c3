import TranslationCore
import TranslationService

/// `glossa roundtrip --via LANG [--from LANG] [--max-steps N] [--json] TEXT`: the "lost in
/// translation" game.
enum RoundtripCommand {
    static let help = """
        USAGE: glossa roundtrip --via LANG [--from LANG] [--max-steps N] [--json] TEXT ...

        Translates TEXT into LANG and back, again and again, printing each step, until the text
        stops changing (the same text comes back twice in the same language) or N steps (default 50).

        OPTIONS:
              --via LANG        the language to go through (required)
          -f, --from LANG       the language of TEXT; omitted: detect
              --max-steps N     stop after N translations (1-50, default 50)
              --json            one JSON object per step: step, language, text
          -h, --help            show this help

        \(EnvironmentSettings.helpText(for: "roundtrip"))

        \(ExitCode.helpText)
        """

    struct Step: Encodable { var step: Int; var language: String; var text: String }

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        let via: LanguageCode
        let maxSteps: Int
        do {
            args = try Arguments(argv, options: ["--via", "--from", "--max-steps"], flags: ["--json", "--help"],
                                 aliases: ["-f": "--from", "-h": "--help"], positionals: 0...Int.max)
            if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
            guard let v = args.value("--via") else { throw Arguments.UsageError(description: "--via LANG is required") }
            guard !args.positionals.isEmpty else { throw Arguments.UsageError(description: "give the TEXT to play with") }
            via = try LanguageCode(parsing: v)
            maxSteps = try args.integer("--max-steps", in: 1...50) ?? 50
        } catch { return Failure.report(error, usage: "glossa roundtrip --help") }
        let service: TranslationService
        do { service = try await Composition.makeService() } catch { return Failure.report(error) }
        defer { Task { await service.shutdown() } }
        let json = args.has("--json")
        var text = args.positionals.joined(separator: " ")
        do {
            let origin: LanguageCode
            if let from = args.value("--from") {
                origin = try LanguageCode(parsing: from)
            } else {
                guard let detected = await service.detect([text]).first?.language else {
                    throw TranslationError(.unableToIdentifyLanguage, "Could not identify the language of the text; give --from LANG.")
                }
                origin = detected
            }
            func show(_ step: Int, _ language: LanguageCode, _ text: String) {
                if json { Console.json(Step(step: step, language: language.bcp47, text: text)) }
                else { Console.out("\(step)\t\(language.bcp47)\t\(text)") }
            }
            show(0, origin, text)
            var seen: [LanguageCode: Set<String>] = [origin: [text]]
            var language = origin
            for step in 1...maxSteps {
                let next = language == origin ? via : origin
                text = try await service.translate([text], from: language, to: next).first?.translatedText ?? ""
                language = next
                show(step, language, text)
                // A text seen before in this language means the game has reached a cycle.
                if !seen[language, default: []].insert(text).inserted {
                    if !json { Console.error("the text stopped changing after \(step) steps") }
                    break
                }
            }
        } catch {
            await service.shutdown()
            return Failure.report(error)
        }
        await service.shutdown()
        return ExitCode.success.rawValue
    }
}
