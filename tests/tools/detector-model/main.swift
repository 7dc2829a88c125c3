// The detector model's trainer and held-out test-set writer (not part of the product). Built
// and run by generate.sh (`make detector-profiles`), which compiles this folder together with
// Sources/LanguageDetection/Model/*.swift, so that training reads text exactly as detection does.
//
//   detector-model train LANGUAGES.tsv FLORES_DIR WORDLISTS_DIR OUTPUT.model
//   detector-model testdata LANGUAGES.tsv FLORES_DIR OUT_DIR
//   detector-model text-testdata LANGUAGES.tsv TEXT_FILE OUT_DIR CODE  (a test set from running text of one language)
//   detector-model retune LANGUAGES.tsv FLORES_DIR MODEL [WORDLISTS_DIR]  (the decision rule only, in place;
//                                                                   WORDLISTS_DIR: Latin's tuning text)
//   detector-model evaluate|speed LANGUAGES.tsv FLORES_DIR MODEL [tuning]
//   detector-model offsets-check LANGUAGES.tsv FLORES_DIR MODEL  (the logit offsets, two-fold on the tuning lines)
//   detector-model detect LANGUAGES.tsv FLORES_DIR MODEL TEXT…   (top three; SCORES=codes prints raw scores)
//
// `testdata` writes FLORES dev lines 801-997 of each language, cut as lingua cuts its test data,
// to OUT_DIR/<code>/{single-words,word-pairs,sentences}.txt: the set `make detect-accuracy` reads.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("detector-model: \(message)\n".utf8))
    exit(1)
}

func floresLines(_ flores: String, _ stem: String, _ range: Range<Int>) throws -> [Substring] {
    let lines = try String(contentsOfFile: "\(flores)/\(stem).dev", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count >= range.upperBound else { throw TrainerError("\(stem).dev has \(lines.count) lines, expected ≥ \(range.upperBound)") }
    return Array(lines[range])
}

let arguments = CommandLine.arguments
guard arguments.count >= 5 else { fail("usage: detector-model train LANGUAGES FLORES WORDLISTS OUTPUT | testdata LANGUAGES FLORES OUT") }
do {
    let sources = try LanguageSource.read(arguments[2])
    let flores = arguments[3]
    switch arguments[1] {
    case "testdata":
        let out = arguments[4]
        for source in sources {
            guard let stem = source.flores else { continue }
            let cuts = HeldOutCuts(lines: try floresLines(flores, stem, Split.test))
            let directory = "\(out)/\(source.code)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for kind in HeldOutCuts.Kind.allCases {
                try Data(cuts[kind].map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: "\(directory)/\(kind.rawValue).txt"))
            }
        }
        print("detector-model: wrote held-out test data for \(sources.filter { $0.flores != nil }.count) languages to \(out)")
    case "text-testdata":
        // Running text of one language (wrapped lines, sentences ending in . ? ! ;) cut as
        // `testdata` cuts FLORES: for a language FLORES lacks (Latin), measured on text of
        // another source than its training text.
        guard arguments.count >= 6, sources.contains(where: { $0.code == arguments[5] }) else { fail("usage: detector-model text-testdata LANGUAGES TEXT OUT CODE (a code of LANGUAGES)") }
        let text = try String(contentsOfFile: arguments[3], encoding: .utf8).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        var sentences: [Substring] = [], start = text.startIndex
        for index in text.indices where ".?!;".contains(text[index]) {
            let after = text.index(after: index)
            guard after == text.endIndex || text[after] == " " else { continue }
            let sentence = text[start..<after].trimmingCharacters(in: .whitespaces)
            // Fragments cut at an abbreviation ("Sex.", "P.") are no sentences: four words at least.
            if sentence.split(separator: " ").count >= 4 { sentences.append(Substring(sentence)) }
            start = after
        }
        let cuts = HeldOutCuts(lines: sentences)
        let directory = "\(arguments[4])/\(arguments[5])"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for kind in HeldOutCuts.Kind.allCases {
            try Data(cuts[kind].map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: "\(directory)/\(kind.rawValue).txt"))
        }
        print("detector-model: wrote \(cuts.singleWords.count) single words, \(cuts.wordPairs.count) word pairs, \(cuts.sentences.count) sentences of \(arguments[5]) to \(directory)")
    case "train":
        guard arguments.count >= 6 else { fail("usage: detector-model train LANGUAGES FLORES WORDLISTS OUTPUT [--option value …]") }
        let options = try TrainingOptions(arguments: Array(arguments.dropFirst(6)))
        LanguageSource.tuningDirectory = arguments[4]
        var parts: [LanguagePart] = []
        for source in sources {
            let part = try trainLanguage(source, flores: flores, wordLists: arguments[4], options: options)
            print("  \(source.code): \(part.grams.count) n-grams, \(part.words.count) words, β=\(String(format: "%.3f", exp(Double(part.language.logOutOfVocabulary))))")
            parts.append(part)
        }
        var content = assemble(parts, options: options)
        let priors = try logPriors(sources, path: trafficPath(arguments[2]))
        for i in content.languages.indices { content.languages[i].logPrior = priors[i] }
        content.parameters = initialDecisionRule(calibrationBins: content.parameters.calibration.count)
        content.parameters = try learnDecisionRule(DetectorModel(content: content), sources: sources, flores: flores)
        let bytes = content.serialized()
        try Data(bytes).write(to: URL(fileURLWithPath: arguments[5]))
        let gramPostings = content.grams.reduce(0) { $0 + $1.postings.count }, wordPostings = content.words.reduce(0) { $0 + $1.postings.count }
        print("detector-model: \(content.languages.count) languages, \(content.grams.count) n-gram rows (\(gramPostings) postings), \(content.words.count) word rows (\(wordPostings) postings), \(bytes.count) bytes → \(arguments[5])")
    case "retune":
        // The decision rule (priors, temperatures, prior weights, calibration) learned anew on
        // an existing model file, which is rewritten with only that changed: what `train`
        // would give with the same tables, without training them again.
        let path = arguments[4]
        if arguments.count > 5 { LanguageSource.tuningDirectory = arguments[5] }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let old = try DetectorModel(bytes: bytes)
        let priors = try logPriors(sources, path: trafficPath(arguments[2]))
        guard priors.count == old.languages.count, zip(sources, old.languages).allSatisfy({ $0.code == $1.code }) else {
            throw TrainerError("\(path) has other languages than languages.tsv")
        }
        var languages = old.languages
        for i in languages.indices { languages[i].logPrior = priors[i] }
        let untuned = DetectorModel(languages: languages, parameters: initialDecisionRule(calibrationBins: old.parameters.calibration.count),
                                    scales: old.scales, grams: old.grams, words: old.words)
        let parameters = try learnDecisionRule(untuned, sources: sources, flores: flores)
        func header(_ languages: [DetectorModel.Language], _ parameters: DetectorModel.Parameters) -> [UInt8] {
            var out = ByteWriter()
            DetectorModel.Content(languages: languages, parameters: parameters, scales: old.scales, grams: [], words: [],
                                  wordKeyBits: old.words.keyBits).writeHeader(&out)
            return out.bytes
        }
        var reader = ByteReader(bytes)
        _ = try reader.bytes(8)
        let payload = try Zlib.decompress(bytes[12...], size: Int(try reader.u32()))
        let oldHeader = header(old.languages, old.parameters)
        guard Array(payload.prefix(oldHeader.count)) == oldHeader else { throw TrainerError("unexpected payload head") }
        let file = DetectorModel.Content.file(payload: header(languages, parameters) + payload[oldHeader.count...])
        try Data(file).write(to: URL(fileURLWithPath: path))
        print("detector-model: decision rule retuned, \(file.count) bytes → \(path)")
    case "offsets-check":
        // Two-fold check of the logit offsets on the tuning lines: learned on the even lines,
        // measured on the odd ones, and the other way round (the model's own offsets set aside).
        var model = try DetectorModel(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[4]))))
        model.parameters.offsets = []
        let samples = try calibrationSamples(model, sources: sources, flores: flores)
        func logit(_ offsets: [Float]) -> (CalibrationSample, Int) -> Float {
            { s, c in model.baseLogit(s, c) + (offsets.isEmpty ? 0 : offsets[c]) }
        }
        func figures(_ f: (mean: [Double], weighted: [Double])) -> String {
            "mean " + f.mean.map { String(format: "%.2f", $0) }.joined(separator: "/") + ", writer-weighted " + f.weighted.map { String(format: "%.2f", $0) }.joined(separator: "/")
        }
        for fold in 0..<2 {
            let offsets = learnOffsets(model, parameters: model.parameters, samples: samples.filter { $0.line % 2 == fold })
            let measured = { (s: CalibrationSample) in s.line % 2 != fold }
            print("fold \(fold) (words/pairs/sentences of the other lines): without offsets \(figures(accuracy(samples, model: model, included: measured, logit: logit([])))); with \(figures(accuracy(samples, model: model, included: measured, logit: logit(offsets))))")
        }
    case "detect":
        // The model's top three for each text given after the model path.
        let model = try DetectorModel(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[4]))))
        if ProcessInfo.processInfo.environment["PARAMETERS"] != nil {
            // The decision rule by word count: what a prior or a temperature change did.
            print("temperatures \(model.parameters.temperatures)\nprior weights \(model.parameters.priorWeights)")
        }
        for text in arguments.dropFirst(5) {
            if let codes = ProcessInfo.processInfo.environment["SCORES"] {
                // The raw summed log-likelihoods, unpruned, of the languages named (the best eight when none).
                let candidates = model.candidates(for: ScriptCensus(text))
                let (scores, _) = model.logLikelihoods(of: text, candidates: candidates, letterLimit: DetectorModel.letterLimit, prune: false)
                let shown = codes.split(separator: ",").compactMap { code in model.languages.firstIndex { $0.code == code } }
                print(text + " raw: " + (shown.isEmpty ? Array(candidates.sorted { scores[$0] > scores[$1] }.prefix(8)) : shown).map { String(format: "%@ %.1f", model.languages[$0].code, scores[$0]) }.joined(separator: ", "))
            }
            let ranked = model.decide(text)?.ranked ?? []
            print("\(text): " + ranked.map { String(format: "%@ %.3f", model.languages[$0.language].code, $0.posterior) }.joined(separator: ", "))
        }
    case "evaluate":
        // The model alone (no CLD2, no input filter) on the held-out lines: a quick check while
        // tuning the training; `make detect-accuracy` measures the product.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[4])))
        let model = try DetectorModel(bytes: bytes)
        // `tuning` (lines 701-800, what pruning and the decision rule may be chosen on) or `test`.
        let lines = arguments.count > 5 && arguments[5] == "tuning" ? Split.calibration : Split.test
        var sums = [0.0, 0.0, 0.0], weightedSums = [0.0, 0.0, 0.0], shareSum = 0.0
        // Weighted by traffic.tsv as it is now, not by the priors the model was tuned with, so
        // that two models are compared on the same weights.
        let shares = try logPriors(sources, path: trafficPath(arguments[2])).map { Double(exp($0)) }
        var rows: [String] = [], confusions: [String] = []
        var elapsed = [Double](repeating: 0, count: 3), counts = [0, 0, 0]
        // This thread's CPU time, not wall time: the figure holds on a loaded machine too.
        func cpu() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
        }
        for source in sources {
            guard let stem = source.flores, let index = model.languages.firstIndex(where: { $0.code == source.code }) else { continue }
            let cuts = HeldOutCuts(lines: try floresLines(flores, stem, lines))
            var row = source.code
            for (k, kind) in HeldOutCuts.Kind.allCases.enumerated() {
                let start = cpu()
                let answers = cuts[kind].map { model.decide($0)?.ranked.first?.language }
                elapsed[k] += cpu() - start
                let right = answers.filter { $0 == index }.count
                // The languages a word pair is most often mistaken for: where the errors go.
                if kind == .wordPairs {
                    var wrong: [String: Int] = [:]
                    for answer in answers where answer != index { wrong[answer.map { model.languages[$0].code } ?? "none", default: 0] += 1 }
                    confusions.append("\(source.code): " + wrong.sorted { $0.value > $1.value }.prefix(4).map { "\($0.key) \($0.value)" }.joined(separator: ", "))
                }
                counts[k] += cuts[kind].count
                let accuracy = 100 * Double(right) / Double(max(1, cuts[kind].count))
                sums[k] += accuracy
                weightedSums[k] += shares[index] * accuracy
                row += String(format: " %.1f", accuracy)
            }
            rows.append(row)
            shareSum += shares[index]
        }
        print(rows.joined(separator: "\n"))
        if ProcessInfo.processInfo.environment["CONFUSIONS"] != nil { print("word pairs mistaken for:\n" + confusions.joined(separator: "\n")) }
        print(String(format: "MEAN of %d: single %.2f pairs %.2f sentences %.2f", rows.count, sums[0] / Double(rows.count),
                     sums[1] / Double(rows.count), sums[2] / Double(rows.count)))
        // Each language weighted by its share of the world's writers (the priors): what users see
        // when texts come in those proportions.
        print(String(format: "TRAFFIC-WEIGHTED: single %.2f pairs %.2f sentences %.2f", weightedSums[0] / shareSum,
                     weightedSums[1] / shareSum, weightedSums[2] / shareSum))
        let microseconds = zip(elapsed, counts).map { $0 / Double(max(1, $1)) }
        print(String(format: "CPU µs per text: single %.1f pairs %.1f sentences %.1f; equal mix %.0f texts/s",
                     microseconds[0], microseconds[1], microseconds[2], 3e6 / microseconds.reduce(0, +)))
    case "speed":
        // CPU time per text on one thread, the best of five passes (robust to a loaded machine).
        let model = try DetectorModel(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[4]))))
        var texts: [[String]] = [[], [], []]
        for source in sources {
            guard let stem = source.flores else { continue }
            let cuts = HeldOutCuts(lines: try floresLines(flores, stem, Split.test), limit: 100)
            for (k, kind) in HeldOutCuts.Kind.allCases.enumerated() { texts[k] += cuts[kind] }
        }
        func cpu() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
        }
        var best = [Double.infinity, .infinity, .infinity]
        var sink = 0
        for _ in 0..<5 {
            for k in 0..<3 {
                let start = cpu()
                for text in texts[k] { sink &+= model.decide(text)?.ranked.first?.language ?? 0 }
                best[k] = min(best[k], (cpu() - start) / Double(texts[k].count))
            }
        }
        print(String(format: "best CPU µs per text: single %.2f pairs %.2f sentences %.2f; equal mix %.0f texts/s (%d)",
                     best[0], best[1], best[2], 3e6 / best.reduce(0, +), sink % 2))
        print("model in memory: \(model.byteCount) bytes")
    default:
        fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
