import Foundation
import TranslationCore
import TranslationService

/// `glossa translate [--from LANG] --to LANG [--format text|html] [--mark-unknown] [--json] [TEXT ...]`,
/// or `glossa translate [--from LANG] --to LANG --file IN --output OUT` for a document.
enum TranslateCommand {
    static let help = """
        USAGE: glossa translate [--from LANG] --to LANG [--format text|html] [--mark-unknown] [--glossary ID|FILE] [--json] [TEXT ...]
               glossa translate [--from LANG] --to LANG [--mark-unknown] [--glossary ID|FILE] --file IN --output OUT

        Translates each TEXT, or each line of standard input when no TEXT is given: one line in,
        one line out, in order, so files stream through. Without --from, each input's language is
        detected. A pair that is not installed is translated through a pivot language when one
        connects them (see `glossa pairs`).

        With --file, translates the document IN into OUT in the same format: plain text, HTML,
        RTF, docx, pptx, xlsx, odt, odp or ods (told by its contents, not its name), keeping its
        layout and everything that is not text (styles, images, tables, fields). Without --from,
        the document's language is detected once. A progress bar is drawn when stderr is a terminal.

        OPTIONS:
          -f, --from LANG        source language (en, eng, en-US, eng_US ...); omitted: detect
          -t, --to LANG          target language (required)
              --format FORMAT    text (default) or html: tags are kept, text between them translated
              --mark-unknown     Apertium pairs: mark unknown words with *, words that could not be
                                 generated with # and words missing from the bilingual dictionary
                                 with @ (default: no marks)
              --glossary ID|FILE terms whose translation is fixed: a file of entries (source<TAB>target
                                 per line; CSV when it ends in .csv) or a glossary made with
                                 `glossa glossary create` (needs --from)
              --json             one JSON object per input: translatedText, source, target, route
              --file IN          translate the document IN (at most 32 MB) instead of text
              --output OUT       where --file writes the translated document (- for stdout)
              --beam-size N      neural pairs: beam width, 1 = greedy (default \(NeuralDefaults.options.beamSize))
              --length-penalty X neural pairs: beam-search length penalty (default \(NeuralDefaults.lengthPenalty))
              --max-decoding-length N  neural pairs: longest output in tokens (default \(NeuralDefaults.options.maxDecodingLength))
              --no-repeat-ngram-size N neural pairs: forbid repeated n-grams of size N, 0 disables
                                 (default \(NeuralDefaults.options.noRepeatNgramSize))
              --threads N        neural pairs: threads one translation's matrix products use
          -h, --help             show this help

        \(NeuralDefaults.helpText)

        \(EnvironmentSettings.helpText(for: "translate"))

        \(ExitCode.helpText)
        """

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        var options: TranslationOptions
        let source: LanguageCode?
        let target: LanguageCode
        do {
            args = try Arguments(argv,
                options: ["--from", "--to", "--format", "--file", "--output", "--glossary", "--beam-size", "--length-penalty",
                          "--max-decoding-length", "--no-repeat-ngram-size", "--threads"],
                flags: ["--json", "--mark-unknown", "--help"], aliases: ["-f": "--from", "-t": "--to", "-h": "--help"],
                positionals: 0...Int.max)
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
                threads: try args.integer("--threads", in: 1...256),
                markUnknownWords: args.has("--mark-unknown"))
            if let reference = args.value("--glossary") {
                guard let source else { throw Arguments.UsageError(description: "--glossary needs --from LANG: a glossary is for one source language") }
                options.glossary = try await GlossaryCommand.load(reference, from: source, to: target)
            }
        } catch {
            return Failure.report(error, usage: "glossa translate --help")
        }
        let service: TranslationService
        do { service = try await Composition.makeService(pipelinesPerPair: Composition.pipelinesForOneStream, neuralThreads: options.threads) } catch { return Failure.report(error) }
        defer { Task { await service.shutdown() } }
        let json = args.has("--json")
        let printer = ResultPrinter(json: json)
        do {
            if let first = source, let route = service.route(from: first, to: target), route.isPivot, !json {
                Console.error("translating through a pivot: \(route)")
            }
            if let file = args.value("--file") {
                guard let output = args.value("--output") else { throw Arguments.UsageError(description: "--file needs --output OUT (- for stdout)") }
                guard args.positionals.isEmpty, !json else { throw Arguments.UsageError(description: "--file takes no TEXT and no --json") }
                try await TranslateFileCommand.run(input: file, output: output, source: source, target: target, options: options, service: service)
            } else if !args.positionals.isEmpty {
                let results = try await service.translate(args.positionals, from: source, to: target, options: options)
                results.forEach(printer.print)
            } else {
                try await streamStdin(service: service, source: source, target: target, options: options, printer: printer)
            }
        } catch {
            await service.shutdown()
            return Failure.report(error, usage: "glossa translate --help")
        }
        await service.shutdown()
        return ExitCode.success.rawValue
    }

    /// Translates stdin batch by batch with a few batches in flight, printing strictly in input
    /// order: a printer awaits each batch's task in the order the batches were read, so a line
    /// typed by a person is printed as soon as it is translated, and a file keeps the pipelines busy.
    private static func streamStdin(service: TranslationService, source: LanguageCode?, target: LanguageCode,
                                    options: TranslationOptions, printer: ResultPrinter) async throws {
        // Bounds memory: at most this many batches are read ahead of the printer.
        let window = AsyncSemaphore(permits: 4)
        let (queue, enqueue) = AsyncStream<Task<[TranslationResult], any Error>>.makeStream()
        let printing = Task {
            for await task in queue {
                do {
                    try await task.value.forEach(printer.print)
                } catch {
                    // Everything before this batch is printed; the reader may be blocked on
                    // stdin, so end the process here with the documented exit code.
                    exit(Failure.report(error))
                }
                await window.signal()
            }
        }
        var inputError: TranslationError?
        for await batch in LineReader.batches() {
            if case .invalidUTF8(let line) = batch {
                inputError = TranslationError(.invalidInput, "standard input line \(line) is not valid UTF-8")
                break
            }
            guard case .lines(let lines) = batch else { continue }
            await window.wait()
            enqueue.yield(Task { try await service.translate(lines, from: source, to: target, options: options) })
        }
        enqueue.finish()
        await printing.value
        if let inputError { throw inputError }
    }
}

/// A counting semaphore for tasks: `wait` suspends (never blocks a thread) until a permit is free.
actor AsyncSemaphore {
    private var permits: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) { self.permits = permits }

    func wait() async {
        if permits > 0 { permits -= 1; return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func signal() {
        if waiters.isEmpty { permits += 1 } else { waiters.removeFirst().resume() }
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
                          source: (result.source ?? .undetermined).bcp47, target: result.target.bcp47,
                          detectedConfidence: result.detection?.confidence,
                          route: result.route?.path.map(\.bcp47), engines: result.route?.steps.map(\.engine)))
    }
}
