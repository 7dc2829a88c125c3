import Foundation
import Zip
@testable import NeuralEngine

/// Writes `model.bin` bytes the way CTranslate2's `ModelSpec._serialize` does, for tests.
struct ModelBinWriter {
    var version: UInt32 = 6
    var spec = "TransformerSpec"
    var variables: [(name: String, shape: [UInt32], type: UInt8, bytes: [UInt8])] = []
    var aliases: [(String, String)] = []

    mutating func floats(_ name: String, _ shape: [UInt32], _ values: [Float]) {
        variables.append((name, shape, 0, values.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }))
    }

    mutating func int8(_ name: String, _ value: Int8) {
        variables.append((name, [], 1, [UInt8(bitPattern: value)]))
    }

    mutating func int16(_ name: String, _ value: Int16) {
        variables.append((name, [], 2, withUnsafeBytes(of: value.littleEndian, Array.init)))
    }

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ v: UInt32) { out += withUnsafeBytes(of: v.littleEndian, Array.init) }
        func str(_ s: String) {
            out += withUnsafeBytes(of: UInt16(s.utf8.count + 1).littleEndian, Array.init)
            out += Array(s.utf8) + [0]
        }
        u32(version)
        if version >= 2 { str(spec); u32(7) }
        u32(UInt32(variables.count))
        for v in variables {
            str(v.name)
            out.append(UInt8(v.shape.count))
            v.shape.forEach(u32)
            if version >= 4 {
                out.append(v.type)
                u32(UInt32(v.bytes.count))
            } else {
                let size: UInt32 = v.type == 0 ? 4 : (v.type == 2 ? 2 : 1)
                out.append(UInt8(size))
                u32(UInt32(v.bytes.count) / size)
            }
            out += v.bytes
        }
        if version >= 3 {
            u32(UInt32(aliases.count))
            for (a, t) in aliases { str(a); str(t) }
        }
        return out
    }
}

/// A tiny deterministic Transformer (D=4, 2 heads, 1+1 layers, 6 tokens) with tied embeddings.
func tinyModel(preNorm: Bool = true) -> ModelBinWriter {
    var w = ModelBinWriter()
    var seed: UInt32 = 12345
    func rnd(_ n: Int) -> [Float] {
        (0..<n).map { _ in
            seed = seed &* 1_103_515_245 &+ 12345
            return Float(Int(seed >> 16) % 2000 - 1000) / 1000
        }
    }
    let d: UInt32 = 4, f: UInt32 = 8, v: UInt32 = 6
    for side in ["encoder", "decoder"] {
        w.int16("\(side)/num_heads", 2)
        w.int8("\(side)/pre_norm", preNorm ? 1 : 0)
        w.int8("\(side)/activation", 0)
        if preNorm { w.floats("\(side)/layer_norm/gamma", [d], [1, 1, 1, 1]); w.floats("\(side)/layer_norm/beta", [d], [0, 0, 0, 0]) }
        let attentions = side == "encoder" ? ["self_attention"] : ["self_attention", "attention"]
        for a in attentions {
            let p = "\(side)/layer_0/\(a)"
            w.floats(p + "/layer_norm/gamma", [d], [1, 1, 1, 1])
            w.floats(p + "/layer_norm/beta", [d], rnd(4))
            if a == "self_attention" {
                w.floats(p + "/linear_0/weight", [3 * d, d], rnd(48)); w.floats(p + "/linear_0/bias", [3 * d], rnd(12))
                w.floats(p + "/linear_1/weight", [d, d], rnd(16)); w.floats(p + "/linear_1/bias", [d], rnd(4))
            } else {
                w.floats(p + "/linear_0/weight", [d, d], rnd(16)); w.floats(p + "/linear_0/bias", [d], rnd(4))
                w.floats(p + "/linear_1/weight", [2 * d, d], rnd(32)); w.floats(p + "/linear_1/bias", [2 * d], rnd(8))
                w.floats(p + "/linear_2/weight", [d, d], rnd(16)); w.floats(p + "/linear_2/bias", [d], rnd(4))
            }
        }
        let p = "\(side)/layer_0/ffn"
        w.floats(p + "/layer_norm/gamma", [d], [1, 1, 1, 1]); w.floats(p + "/layer_norm/beta", [d], rnd(4))
        w.floats(p + "/linear_0/weight", [f, d], rnd(32)); w.floats(p + "/linear_0/bias", [f], rnd(8))
        w.floats(p + "/linear_1/weight", [d, f], rnd(32)); w.floats(p + "/linear_1/bias", [d], rnd(4))
    }
    w.floats("decoder/embeddings/weight", [v, d], rnd(24))
    w.floats("decoder/projection/bias", [v], [0, 0, 0.5, 0, 0, 0])
    w.aliases = [("decoder/projection/weight", "decoder/embeddings/weight"),
                 ("encoder/embeddings_0/weight", "decoder/embeddings/weight")]
    return w
}

let tinyVocabulary = ["<unk>", "<s>", "</s>", "▁a", "▁b", "c"]

/// Writes a model directory for `writer` into a fresh temporary folder.
func writeModelDirectory(_ writer: ModelBinWriter, config: String? = #"{"unk_token": "<unk>", "bos_token": "<s>", "eos_token": "</s>", "decoder_start_token": "<s>", "add_source_eos": false}"#,
                         vocabulary: [String]? = tinyVocabulary) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-neural-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try Data(writer.bytes()).write(to: dir.appendingPathComponent("model.bin"))
    if let config { try Data(config.utf8).write(to: dir.appendingPathComponent("config.json")) }
    if let vocabulary { try JSONSerialization.data(withJSONObject: vocabulary).write(to: dir.appendingPathComponent("shared_vocabulary.json")) }
    return dir
}

/// A zip file of stored (uncompressed) entries, with correct CRC-32s.
func storedZip(_ files: [(String, [UInt8])]) -> [UInt8] {
    ZipWriter.archive(files.map { (path: $0.0, contents: $0.1) }, deflated: false)
}
