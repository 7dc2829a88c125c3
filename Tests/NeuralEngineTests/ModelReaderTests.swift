import Foundation
import Testing
import TranslationCore
@testable import NeuralEngine

@Suite struct ModelReaderTests {
    @Test func parsesVariablesAndResolvesAliases() throws {
        let binary = try ModelBinary(data: Data(tinyModel().bytes()), fileName: "model.bin")
        #expect(binary.version == 6)
        #expect(binary.specName == "TransformerSpec")
        let projection = try #require(binary.variables["decoder/projection/weight"])
        #expect(projection.shape == [6, 4])
        #expect(projection.bytes == binary.variables["decoder/embeddings/weight"]?.bytes)
    }

    @Test func aliasesCarryTheirScale() throws {
        var w = ModelBinWriter()
        w.variables.append(("a/weight", [2, 2], 1, [1, 2, 3, 4]))
        w.floats("a/weight_scale", [2], [2, 4])
        w.aliases = [("b/weight", "a/weight")]
        let binary = try ModelBinary(data: Data(w.bytes()), fileName: "m")
        let scale = try #require(binary.variables["b/weight_scale"])
        #expect(try WeightConversion.floats(binary.variables["b/weight"]!, scale: scale) == [0.5, 1, 0.75, 1])
    }

    @Test(arguments: [3, 5, 2])
    func readsOlderVersions(version: UInt32) throws {
        var w = tinyModel()
        w.version = version
        w.aliases = version >= 3 ? w.aliases : []
        let binary = try ModelBinary(data: Data(w.bytes()), fileName: "m")
        #expect(binary.version == version)
        #expect(binary.variables["encoder/num_heads"]?.type == .int16)
    }

    @Test func everyTruncationIsAClearError() throws {
        let bytes = tinyModel().bytes()
        // Cut at many points: each must throw an error naming the file, never crash.
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            let error = #expect(throws: TranslationError.self) {
                try ModelBinary(data: Data(bytes[0..<cut]), fileName: "/models/x/model.bin")
            }
            #expect(error?.message.contains("/models/x/model.bin") == true)
            #expect(error?.message.contains("truncated") == true || cut < 4)
        }
    }

    @Test func rejectsNewerVersionsUnknownTypesAndBadSizes() throws {
        var w = tinyModel()
        w.version = 7
        let newer = #expect(throws: TranslationError.self) { try ModelBinary(data: Data(w.bytes()), fileName: "m.bin") }
        #expect(newer?.message.contains("version 7") == true)

        var bad = ModelBinWriter()
        bad.variables.append(("x", [1], 9, [0]))
        let type = #expect(throws: TranslationError.self) { try ModelBinary(data: Data(bad.bytes()), fileName: "m.bin") }
        #expect(type?.message.contains("unknown type id 9") == true)

        var size = ModelBinWriter()
        size.variables.append(("y", [3], 0, [0, 0, 0, 0]))
        let sz = #expect(throws: TranslationError.self) { try ModelBinary(data: Data(size.bytes()), fileName: "m.bin") }
        #expect(sz?.message.contains("declares 4 bytes, expected 12") == true)

        let trailing = #expect(throws: TranslationError.self) { try ModelBinary(data: Data(tinyModel().bytes() + [1, 2]), fileName: "m.bin") }
        #expect(trailing?.message.contains("unexpected bytes") == true)

        var alias = ModelBinWriter()
        alias.aliases = [("a", "missing")]
        let al = #expect(throws: TranslationError.self) { try ModelBinary(data: Data(alias.bytes()), fileName: "m.bin") }
        #expect(al?.message.contains("unknown variable missing") == true)
    }

    @Test func directoryErrorsNameTheMissingFile() throws {
        let noConfig = try writeModelDirectory(tinyModel(), config: nil)
        let e1 = #expect(throws: TranslationError.self) { try Translator(modelDirectory: noConfig) }
        #expect(e1?.message.contains("config.json") == true)

        let noVocab = try writeModelDirectory(tinyModel(), vocabulary: nil)
        let e2 = #expect(throws: TranslationError.self) { try Translator(modelDirectory: noVocab) }
        #expect(e2?.message.contains("vocabulary") == true)

        let wrongVocab = try writeModelDirectory(tinyModel(), vocabulary: ["<unk>", "<s>", "</s>"])
        let e3 = #expect(throws: TranslationError.self) { try Translator(modelDirectory: wrongVocab) }
        #expect(e3?.message.contains("vocabularies have 3/3 tokens") == true)

        var missing = tinyModel()
        missing.variables.removeAll { $0.name == "decoder/layer_0/ffn/linear_1/weight" }
        let dir = try writeModelDirectory(missing)
        let e4 = #expect(throws: TranslationError.self) { try Translator(modelDirectory: dir) }
        #expect(e4?.message.contains("'decoder/layer_0/ffn/linear_1/weight' is missing") == true)

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-empty-\(UUID().uuidString)")
        let e5 = #expect(throws: TranslationError.self) { try Translator(modelDirectory: empty) }
        #expect(e5?.message.contains("model.bin is missing") == true)
    }

    @Test func txtVocabularyStripsCarriageReturnsOnlyWhenEveryLineHasOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-vocab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("a\r\nb\r\n".utf8).write(to: dir.appendingPathComponent("v.txt"))
        #expect(try Vocabulary.load(directory: dir, name: "v", unkToken: "<unk>")?.tokens == ["a", "b", "<unk>"])
        try Data("a\r\nb\n".utf8).write(to: dir.appendingPathComponent("w.txt"))
        #expect(try Vocabulary.load(directory: dir, name: "w", unkToken: "<unk>")?.tokens == ["a\r", "b", "<unk>"])
    }

    @Test func tinyModelTranslatesDeterministically() throws {
        for preNorm in [true, false] {
            let translator = try Translator(modelDirectory: try writeModelDirectory(tinyModel(preNorm: preNorm)))
            for beam in [1, 3] {
                let options = DecodingOptions(beamSize: beam, maxDecodingLength: 8, noRepeatNgramSize: 2)
                let first = try translator.translate([["▁a", "▁b"], ["c"], [], ["unknown-token"]], options: options)
                let second = try translator.translate([["▁a", "▁b"], ["c"], [], ["unknown-token"]], options: options)
                #expect(first.map(\.tokens) == second.map(\.tokens))
                #expect(first.count == 4)
                for r in first {
                    #expect(r.tokens.count <= 8)
                    #expect(r.tokens.allSatisfy { tinyVocabulary.contains($0) && $0 != "</s>" })
                    #expect(r.score <= 0)
                }
            }
        }
    }

    @Test func invalidOptionsAreRejected() throws {
        let translator = try Translator(modelDirectory: try writeModelDirectory(tinyModel()))
        #expect(throws: TranslationError.self) { try translator.translate([["▁a"]], options: DecodingOptions(beamSize: 0)) }
        #expect(throws: TranslationError.self) { try translator.translate([["▁a"]], options: DecodingOptions(beamSize: 1, maxDecodingLength: 0)) }
        #expect(throws: TranslationError.self) { try translator.translate([["▁a"]], options: DecodingOptions(beamSize: 1, noRepeatNgramSize: -1)) }
        // 6 tokens: beam 3 is the most the first step can feed (2×beam candidates).
        let wide = #expect(throws: TranslationError.self) { try translator.translate([["▁a"]], options: DecodingOptions(beamSize: 4)) }
        #expect(wide?.message.contains("at most 3") == true)
    }
}
