import TranslationCore
import TranslationService

/// `glossa translate [--from LANG] --to LANG [--format text|html] [--json] [TEXT ...]`
enum TranslateCommand {
    static let help = """
        USAGE: glossa translate [--from LANG] --to LANG [--format text|html] [--json] [TEXT ...]

        Translates each TEXT, or each line of standard input when no TEXT is given: one line in,
        one line out, in order, so files stream through. Without --from, each input's language is
        detected. A pair that is not installed is translated through a pivot language when one
        connects them (see `glossa pairs`).

        OPTIONS:
          -f, --from LANG        source language (en, eng, en-US, eng_US ...); omitted: detect
          -t, --to LANG          target language (required)
              --format FORMAT    text (default) or html: tags are kept, text between them translated
              --json             one JSON object per input: translatedText, source, target, route
              --beam-size N      neural pairs: beam width (1 = greedy)
              --length-penalty X neural pairs: beam-search length penalty
              --max-decoding-length N  neural pairs: longest output in tokens
              --no-repeat-ngram-size N neural pairs: forbid repeated n-grams of size N (0 disables)
              --threads N        neural pairs: worker threads
          -h, --help             show this help

        \(ExitCode.helpText)
        """

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        let options: TranslationOptions
        let source: LanguageCode?
        let target: LanguageCode
        do {
            args = try Arguments(argv,
                options: ["--from", "--to", "--format", "--beam-size", "--length-penalty",
                          "--max-decoding-length", "--no-repeat-ngram-size", "--threads"],
                flags: ["--json", "--help"], aliases: ["-f": "--from", "-t": "--to", "-h": "--help"])
            if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
            guard let to = args.value("--to") else { throw Arguments.UsageError(description: "--to LANG is required") }
            target = try LanguageCode(parsing: to)
            source = try args.value("--from").map { try LanguageCode(parsing: $0) }
            options = TranslationOptions(
                format: try args.value("--format").map { try TextFormat(parsing: $0) } ?? .text,
                beamSize: try args.integer("--beam-size", in: 1...64),
                lengthPenalty: try args.double("--length-penalty"),
                maxDecodingLength: try args.integer("--max-decoding-length", in: 1...4096),
                noRepeatNgramSize: try args.integer("--no-repeat-ngram-size", in: 0...32),
                threads: try args.integer("--threads", in: 1...256))
        } catch {
            return Failure.report(error, usage: "glossa translate --help")
        }
        let service: TranslationService
        do { service = try await Composition.makeService() } catch { return Failure.report(error) }
        defer { Task { await service.shutdown() } }
        let json = args.has("--json")
        let printer = ResultPrinter(json: json)
        do {
            if let first = source, let route = service.route(from: first, to: target), route.isPivot, !json {
                Console.error("translating through a pivot: \(route)")
            }
            if !args.positionals.isEmpty {
                let results = try await service.translate(args.positionals, from: source, to: target, options: options)
                results.forEach(printer.print)
            } else {
                try await streamStdin(service: service, source: source, target: target, options: options, printer: printer)
            }
        } catch {
            await service.shutdown()
            return Failure.report(error)
        }
        await service.shutdown()
        return ExitCode.success.rawValue
    }

    /// Translates stdin batch by batch with a few batches in flight, printing strictly in input
    /// order: the oldest batch is always awaited first.
    private static func streamStdin(service: TranslationService, source: LanguageCode?, target: LanguageCode,
                                    options: TranslationOptions, printer: ResultPrinter) async throws {
        let inFlightLimit = 4
        var inFlight: [Task<[TranslationResult], any Error>] = []
        for await batch in LineReader.batches() {
            switch batch {
            case .lines(_, let lines):
                inFlight.append(Task { try await service.translate(lines, from: source, to: target, options: options) })
                if inFlight.count >= inFlightLimit {
                    try await inFlight.removeFirst().value.forEach(printer.print)
                }
            case .invalidUTF8(let line):
                for task in inFlight { try await task.value.forEach(printer.print) }
                throw TranslationError(.invalidInput, "standard input line \(line) is not valid UTF-8")
            }
        }
        for task in inFlight { try await task.value.forEach(printer.print) }
    }
}

/// Prints translation results as plain lines or JSON lines.
struct ResultPrinter {
    let json: Bool

    /// The JSON shape of one result (stable: documented in `--help`).
    struct Line: Encodable {
        var translatedText: String
        var sourceText: String
        var source: String
        var target: String
        var detectedConfidence: Double?
        var route: [String]?
        var engines: [String]?
    }

    func print(_ result: TranslationResult) {
        guard json else { Console.out(result.translatedText); return }
        Console.json(Line(translatedText: result.translatedText, sourceText: result.sourceText,
                          source: result.source.bcp47, target: result.target.bcp47,
                          detectedConfidence: result.detection?.confidence,
                          route: result.route?.path.map(\.bcp47), engines: result.route?.steps.map(\.engine)))
    }
}
