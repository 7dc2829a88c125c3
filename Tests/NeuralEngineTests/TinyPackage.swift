import Foundation
@testable import NeuralEngine

/// A SentencePiece unigram model written as SentencePiece's `ModelProto` bytes (protobuf), so a
/// test can run whole packages without training one: `pieces[0]` is `<unk>`, 1 `<s>`, 2 `</s>`
/// (SentencePiece's default ids), the rest normal pieces of equal score.
///
/// Fields written (sentencepiece_model.proto): `pieces` (1) each with `piece` (1), `score` (2),
/// `type` (3: 1 normal, 2 unknown, 3 control); `trainer_spec` (2) with `model_type` (3: 1
/// unigram); `normalizer_spec` (3) with `name` (1) `identity`, so text is not rewritten.
func sentencePieceModel(_ pieces: [String]) -> [UInt8] {
    func varint(_ value: UInt64) -> [UInt8] {
        var v = value, out: [UInt8] = []
        repeat {
            let byte = UInt8(v & 0x7f)
            v >>= 7
            out.append(v == 0 ? byte : byte | 0x80)
        } while v != 0
        return out
    }
    func field(_ number: UInt64, bytes: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes }
    func field(_ number: UInt64, varint value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }
    func field(_ number: UInt64, float value: Float) -> [UInt8] {
        varint(number << 3 | 5) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
    }
    var out: [UInt8] = []
    for (id, piece) in pieces.enumerated() {
        let type: UInt64 = id == 0 ? 2 : (id < 3 ? 3 : 1)
        out += field(1, bytes: field(1, bytes: Array(piece.utf8)) + field(2, float: id < 3 ? 0 : -1) + field(3, varint: type))
    }
    out += field(2, bytes: field(3, varint: 1))
    out += field(3, bytes: field(1, bytes: Array("identity".utf8)))
    return out
}

/// A models folder holding one package for `pair` (`en`→`de` by default): the tiny random model
/// of ``tinyModel(preNorm:)`` and a SentencePiece model over its vocabulary (plus `▁`, so any
/// space-separated text has pieces). Its translations are arbitrary but deterministic.
func tinyModelsFolder(from source: String = "en", to target: String = "de") throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-tiny-models-\(UUID().uuidString)")
    let package = root.appendingPathComponent("tiny-\(source)-\(target)")
    let model = try writeModelDirectory(tinyModel())
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    try FileManager.default.moveItem(at: model, to: package.appendingPathComponent("model"))
    try Data(#"{"from_code": "\#(source)", "to_code": "\#(target)", "package_version": "1.0"}"#.utf8)
        .write(to: package.appendingPathComponent("metadata.json"))
    try Data(sentencePieceModel(tinyVocabulary + ["▁"])).write(to: package.appendingPathComponent("sentencepiece.model"))
    return root
}
