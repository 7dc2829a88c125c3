import TranslationCore
import TranslationService

/// `glossa detect [--json] [TEXT ...]`
enum DetectCommand {
    static let help = """
        USAGE: glossa detect [--json] [TEXT ...]

        Detects the language of each TEXT, or of each line of standard input when no TEXT is
        given. Prints one line per input: code, name and confidence (0-1), tab-separated; `und`
        (name `unknown`, confidence 0) when there is nothing to detect (empty text, symbols,
        numbers, URLs), in the plain and the JSON output alike.

        OPTIONS:
              --json      one JSON object per input: language, name, confidence, isReliable
          -h, --help      show this help

        \(ExitCode.helpText)
        """

    /// One `--json` line. Nothing to detect is `und` (BCP-47's "undetermined"), as every HTTP
    /// protocol answers it, and as the plain output prints it.
    struct Line: Encodable {
        var text: String
        var language: String
        var name: String
        var confidence: Double
        var isReliable: Bool
    }

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        do {
            args = try Arguments(argv, options: [], flags: ["--json", "--help"], aliases: ["-h": "--help"], positionals: 0...Int.max)
        } catch { return Failure.report(error, usage: "glossa detect --help") }
        if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
        let detector = Composition.makeDetector()
        let json = args.has("--json")
        func emit(_ texts: [String]) async {
            for (text, detection) in zip(texts, await detector.detect(texts)) {
                let code = detection.language?.bcp47 ?? "und"
                let name = detection.language?.displayName() ?? "unknown"
                if json {
                    Console.json(Line(text: text, language: code, name: name, confidence: detection.confidence,
                                      isReliable: detection.isReliable))
                } else {
                    Console.out("\(code)\t\(name)\t\(String(format: "%.2f", detection.confidence))")
                }
            }
        }
        if !args.positionals.isEmpty {
            await emit(args.positionals)
            return ExitCode.success.rawValue
        }
        for await batch in LineReader.batches() {
            switch batch {
            case .lines(let lines): await emit(lines)
            case .invalidUTF8(let line):
                return Failure.report(TranslationError(.invalidInput, "standard input line \(line) is not valid UTF-8"))
            }
        }
        return ExitCode.success.rawValue
    }
}
