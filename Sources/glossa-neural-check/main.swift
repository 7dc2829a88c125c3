// glossa-neural-check: runs Glossa's neural engine over the cases of a reference file written by
// tests/tools/ct2_reference.py and writes Glossa's outputs, for tests/test_neural_reference.py
// to compare with CTranslate2's.
// Usage (Usage.swift, also `--help`): the reference check, the same through the engine API, and the
// benchmark that bench/bench_neural.py runs.
import Foundation
import NeuralEngine
import TranslationCore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("glossa-neural-check: " + message + "\n").utf8))
    exit(1)
}

let args = CommandLine.arguments
if args.count == 2 && ["--help", "-h"].contains(args[1]) {
    print(Usage.text)
    exit(0)
}
if args.count >= 2 && args[1] == "--gemm" {
    runGemmBench(Array(args.dropFirst(2)))
    exit(0)
}
if args.count >= 2 && args[1] == "--bench" {
    runBench(Array(args.dropFirst(2)))
    exit(0)
}
if args.count == 6 && args[1] == "--engine" {
    await runEngineCheck(store: args[2], source: args[3], refsPath: args[4], outPath: args[5])
    exit(0)
}
guard args.count == 3 else { fail(Usage.text) }
guard let data = FileManager.default.contents(atPath: args[1]),
      let refs = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
      let cases = refs["cases"] as? [[String: Any]] else { fail("cannot read \(args[1])") }

func decodingOptions(_ o: [String: Any]) -> DecodingOptions {
    DecodingOptions(beamSize: o["beam_size"] as? Int ?? 2,
                    lengthPenalty: Float(o["length_penalty"] as? Double ?? 1),
                    maxDecodingLength: o["max_decoding_length"] as? Int ?? 256,
                    noRepeatNgramSize: o["no_repeat_ngram_size"] as? Int ?? 0)
}

var translators: [String: Translator] = [:]
var outputs: [[String: Any]] = []
do {
    for c in cases {
        guard let model = c["model"] as? String, let source = c["source"] as? [[String]],
              let options = c["options"] as? [String: Any] else { fail("malformed case") }
        let translator = try translators[model] ?? Translator(modelDirectory: URL(fileURLWithPath: model))
        translators[model] = translator
        let results = try translator.translate(source, options: decodingOptions(options))
        // The kernels and the search split their work over threads; the answer must not change.
        let threaded = try translator.translate(source, options: decodingOptions(options), threads: 3)
        if threaded.map(\.tokens) != results.map(\.tokens)
            || threaded.map(\.score.bitPattern) != results.map(\.score.bitPattern) {
            fail("\(c["variant"] ?? "?"): three threads decode differently from one")
        }
        outputs.append(["variant": c["variant"] ?? "", "quantized": translator.isQuantized,
                        "outputs": results.map { ["tokens": $0.tokens, "score": Double($0.score)] }])
    }
    var text: [String: Any] = [:]
    if let t = refs["text"] as? [String: Any], let archive = t["argosmodel"] as? String,
       let texts = t["texts"] as? [String], let options = t["options"] as? [String: Any] {
        // The whole path: unpack the package, tokenize with SentencePiece, translate, detokenize.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-check-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dir = try ArgosPackage.unpack(URL(fileURLWithPath: archive), into: scratch)
        let package = try ArgosPackage(directory: dir)
        let spm = try SentencePiece(path: package.sentencePieceModel.path)
        let translator = try Translator(modelDirectory: package.modelDirectory)
        let pieces = try texts.map { try spm.encode($0) }
        let results = try translator.translate(pieces, options: decodingOptions(options))
        text = ["from": package.metadata.fromCode, "to": package.metadata.toCode, "source": pieces,
                "texts": try results.map { try spm.decode($0.tokens) }]
    }
    let out = try JSONSerialization.data(withJSONObject: ["cases": outputs, "text": text])
    guard FileManager.default.createFile(atPath: args[2], contents: out) else { fail("cannot write \(args[2])") }
} catch {
    fail("\(error)")
}
