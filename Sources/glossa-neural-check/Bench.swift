import Foundation
import NeuralEngine

/// `--bench MODEL_DIR BATCH BEAM THREADS LENGTH REPEATS`: translates BATCH synthetic sources
/// (20 tokens each) to exactly LENGTH tokens, REPEATS times after one warm-up run, on this
/// (dedicated, non-cooperative) main thread; prints the best time as JSON.
func runBench(_ a: [String]) {
    guard a.count == 6, let batch = Int(a[1]), let beam = Int(a[2]), let threads = Int(a[3]),
          let length = Int(a[4]), let repeats = Int(a[5]) else {
        fail("--bench takes six arguments, got \(a.count)\n" + Usage.text)
    }
    do {
        Translator.setBLASThreads(threads)
        let translator = try Translator(modelDirectory: URL(fileURLWithPath: a[0]))
        let sources = (0..<batch).map { b in (0..<20).map { "tok\(($0 * 7919 + b * 104_729) % 31_000)" } }
        let options = DecodingOptions(beamSize: beam, lengthPenalty: 1, maxDecodingLength: length,
                                      noRepeatNgramSize: 0, returnScores: false)
        _ = try translator.translate(sources, options: options, threads: threads)
        var best = Double.infinity
        var tokens = 0
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            let out = try translator.translate(sources, options: options, threads: threads)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            tokens = out.reduce(0) { $0 + $1.tokens.count }
        }
        print(#"{"seconds": \#(best), "tokens": \#(tokens)}"#)
    } catch {
        fail("\(error)")
    }
}
