import Foundation
import NeuralEngine
import TranslationCore

/// Progress events, collected from the install callback.
final class Events: @unchecked Sendable {
    // @unchecked: `list` is only touched under `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}

func runEngineCheck(store path: String, source: String, refsPath: String, outPath: String) async {
    guard let data = FileManager.default.contents(atPath: refsPath),
          let refs = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
          let text = refs["text"] as? [String: Any], let texts = text["texts"] as? [String],
          let o = text["options"] as? [String: Any] else { fail("cannot read \(refsPath)") }
    let store = ModelStore(root: URL(fileURLWithPath: path))
    let events = Events()
    do {
        let model = try await store.install(from: source) { stage, fraction in
            events.add("\(stage) \(String(format: "%.2f", fraction))")
        }
        let engine = NeuralEngine(store: store)
        let pairs = await engine.pairs()
        let pair = try LanguagePair(source: LanguageCode(parsing: model.metadata.fromCode),
                                    target: LanguageCode(parsing: model.metadata.toCode))
        let options = TranslationOptions(beamSize: o["beam_size"] as? Int,
                                         lengthPenalty: o["length_penalty"] as? Double,
                                         maxDecodingLength: o["max_decoding_length"] as? Int,
                                         noRepeatNgramSize: o["no_repeat_ngram_size"] as? Int, threads: 1)
        let translated = try await engine.translate(texts, pair: pair, options: options)
        // Several lines in one text: translated line by line, line breaks kept.
        let joined = try await engine.translate([texts[0] + "\n\n" + texts[1]], pair: pair, options: options)
        var unsupported = ""
        do {
            _ = try await engine.translate(["x"], pair: LanguagePair(source: "de", target: "en"), options: options)
        } catch let error as TranslationError {
            unsupported = error.shortDescription
        }
        let status = await engine.status()
        await engine.shutdown()
        let listed = store.list().models.map(\.name)
        try store.remove(model.name)
        let after = store.list().models.map(\.name)
        let out: [String: Any] = [
            "installed": model.name, "listed": listed, "after_remove": after,
            "pairs": pairs.map { "\($0.source.bcp47)-\($0.target.bcp47)" }, "status_loaded": status.loaded,
            "texts": translated, "joined": joined, "unsupported": unsupported, "events": events.all,
        ]
        let json = try JSONSerialization.data(withJSONObject: out)
        guard FileManager.default.createFile(atPath: outPath, contents: json) else { fail("cannot write \(outPath)") }
    } catch {
        fail("\(error)")
    }
}
