import TranslationCore
import TranslationService

/// `glossa detect [--json] [TEXT ...]`
enum DetectCommand {
    static let help = """
        USAGE: glossa detect [--json] [TEXT ...]

        Detects the language of each TEXT, or of each line of standard input when no TEXT is
        given. Prints one line per input: code, name and confidence (0-1), tab-separated; `und`
        when there is nothing to detect (empty or symbol-only text).

        OPTIONS:
              --json      one JSON object per input: language, name, confidence, isReliable
          -h, --help      show this help

        \(ExitCode.helpText)
        """

    struct Line: Encodable {
        var text: String
        var language: String?
        var name: String?
        var confidence: Double
        var isReliable: Bool

        /// Written by hand so an unknown language is an explicit `null`, not a missing key.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            try c.encode(language, forKey: .language)
            try c.encode(name, forKey: .name)
            try c.encode(confidence, forKey: .confidence)
            try c.encode(isReliable, forKey: .isReliable)
        }

        private enum CodingKeys: String, CodingKey { case text, language, name, confidence, isReliable }
    }

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        do {
            args = try Arguments(argv, options: [], flags: ["--json", "--help"], aliases: ["-h": "--help"])
        } catch { return Failure.report(error, usage: "glossa detect --help") }
        if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
        let detector = Composition.makeDetector()
        let json = args.has("--json")
        func emit(_ texts: [String]) async {
            for (text, detection) in zip(texts, await detector.detect(texts)) {
                if json {
                    Console.json(Line(text: text, language: detection.language?.bcp47,
                                      name: detection.language?.displayName(), confidence: detection.confidence,
                                      isReliable: detection.isReliable))
                } else {
                    let code = detection.language?.bcp47 ?? "und"
                    let name = detection.language?.displayName() ?? "unknown"
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
