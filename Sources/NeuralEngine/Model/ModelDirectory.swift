import Foundation
import TranslationCore

/// The `config.json` of a sequence-to-sequence CTranslate2 model; every field has the writer's
/// default when absent (model.bin versions before 6 have no config file at all).
public struct ModelConfig: Sendable, Equatable {
    /// Token for unknown pieces. Default `<unk>`.
    public var unkToken = "<unk>"
    /// Start-of-sentence token. Default `<s>`.
    public var bosToken = "<s>"
    /// End-of-sentence token. Default `</s>`.
    public var eosToken = "</s>"
    /// Token the decoder starts from; nil means the caller must give a target prefix. Default `<s>`.
    public var decoderStartToken: String? = "<s>"
    /// Prepend `bosToken` to the source. Default false.
    public var addSourceBos = false
    /// Append `eosToken` to the source. Default false.
    public var addSourceEos = false
    /// Layer-norm epsilon; nil means 1e-5 (CTranslate2 `layers/common.cc`). Default nil.
    public var layerNormEpsilon: Float?

    /// The defaults.
    public init() {}

    /// Parses a config.json document; `fileName` names it in errors.
    public init(json: Data, fileName: String) throws {
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw TranslationError(.engineFailure, "Malformed model config \(fileName): not a JSON object.")
        }
        func string(_ key: String) throws -> String? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let s = value as? String else {
                throw TranslationError(.engineFailure, "Malformed model config \(fileName): '\(key)' must be a string.")
            }
            return s
        }
        func bool(_ key: String) -> Bool? { (object[key] as? NSNumber)?.boolValue }
        if let v = try string("unk_token") { unkToken = v }
        if let v = try string("bos_token") { bosToken = v }
        if let v = try string("eos_token") { eosToken = v }
        if object.keys.contains("decoder_start_token") { decoderStartToken = try string("decoder_start_token") }
        if let v = bool("add_source_bos") { addSourceBos = v }
        if let v = bool("add_source_eos") { addSourceEos = v }
        if let v = object["layer_norm_epsilon"] as? NSNumber { layerNormEpsilon = v.floatValue }
        if (object["multi_query_attention"] as? NSNumber)?.boolValue == true {
            throw TranslationError(.engineFailure, "Unsupported model config \(fileName): multi-query attention is not supported.")
        }
    }
}

/// A token list: index = id. Lookups of unknown tokens give the unknown token's id.
public struct Vocabulary: Sendable {
    /// Tokens in id order.
    public let tokens: [String]
    private let ids: [String: Int]
    /// The id of the unknown token (appended when the file lacks it, as CTranslate2 does).
    public let unkID: Int

    /// Makes a vocabulary; `unkToken` is appended if missing.
    public init(tokens: [String], unkToken: String) {
        var list = tokens
        if !list.contains(unkToken) { list.append(unkToken) }
        var map: [String: Int] = [:]
        map.reserveCapacity(list.count)
        // The first occurrence wins, as in CTranslate2's vocabulary.cc.
        for (i, t) in list.enumerated() where map[t] == nil { map[t] = i }
        self.tokens = list
        self.ids = map
        self.unkID = map[unkToken]!
    }

    /// Number of tokens.
    public var count: Int { tokens.count }

    /// The id of `token`, or the unknown id.
    public func id(_ token: String) -> Int { ids[token] ?? unkID }

    /// Whether `token` is in the vocabulary.
    public func contains(_ token: String) -> Bool { ids[token] != nil }

    /// Loads `<name>.json` (a JSON array) or `<name>.txt` (one token per line) from `directory`;
    /// nil when neither exists.
    static func load(directory: URL, name: String, unkToken: String) throws -> Vocabulary? {
        let json = directory.appendingPathComponent(name + ".json")
        let txt = directory.appendingPathComponent(name + ".txt")
        if FileManager.default.fileExists(atPath: json.path) {
            let data = try readFile(json)
            guard let list = (try? JSONSerialization.jsonObject(with: data)) as? [String] else {
                throw TranslationError(.engineFailure, "Malformed vocabulary \(json.path): expected a JSON array of strings.")
            }
            return Vocabulary(tokens: list, unkToken: unkToken)
        }
        if FileManager.default.fileExists(atPath: txt.path) {
            // Split on the byte 0x0A: as Characters, "\r\n" is one grapheme and would not split.
            var lines: [String] = []
            for line in [UInt8](try readFile(txt)).split(separator: 0x0A, omittingEmptySubsequences: false) {
                guard let s = String(validating: line, as: UTF8.self) else {
                    throw TranslationError(.engineFailure, "Malformed vocabulary \(txt.path): line \(lines.count + 1) is not UTF-8.")
                }
                lines.append(s)
            }
            if lines.last == "" { lines.removeLast() }
            // A trailing \r is stripped only if every line has one (CTranslate2 vocabulary.cc).
            if !lines.isEmpty, lines.allSatisfy({ $0.hasSuffix("\r") }) {
                lines = lines.map { String($0.dropLast()) }
            }
            return Vocabulary(tokens: lines, unkToken: unkToken)
        }
        return nil
    }
}

func readFile(_ url: URL) throws -> Data {
    do {
        return try Data(contentsOf: url)
    } catch {
        throw TranslationError(.engineFailure, "Cannot read \(url.path): \(error.localizedDescription)")
    }
}

extension ModelDirectory {
    /// Parses `model.bin` (checking that it is a sequence-to-sequence Transformer).
    public func readBinary() throws -> ModelBinary {
        let modelFile = url.appendingPathComponent("model.bin")
        let binary = try ModelBinary(contentsOf: modelFile)
        guard binary.specName == "TransformerSpec" else {
            throw TranslationError(.engineFailure, "Unsupported model \(modelFile.path): spec '\(binary.specName)' (only the sequence-to-sequence TransformerSpec is supported).")
        }
        return binary
    }

    static func binaryVersion(_ file: URL) throws -> UInt32 {
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw TranslationError(.engineFailure, "Cannot read model file \(file.path).")
        }
        defer { try? handle.close() }
        let head = handle.readData(ofLength: 4)
        guard head.count == 4 else {
            throw TranslationError(.engineFailure, "Malformed model file \(file.path): file is truncated: binary version needs 4 bytes, \(head.count) left (at byte 0).")
        }
        return head.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
    }
}

/// A CTranslate2 model directory: `model.bin`, `config.json` and the vocabularies.
public struct ModelDirectory: Sendable {
    /// The directory.
    public let url: URL
    /// The configuration.
    public let config: ModelConfig
    /// The source vocabulary.
    public let sourceVocabulary: Vocabulary
    /// The target vocabulary (the same as the source one when shared).
    public let targetVocabulary: Vocabulary

    /// Reads the directory at `url`.
    /// - Throws: ``TranslationError`` naming the missing or malformed file.
    public init(url: URL) throws {
        self.url = url
        let modelFile = url.appendingPathComponent("model.bin")
        guard FileManager.default.fileExists(atPath: modelFile.path) else {
            throw TranslationError(.engineFailure, "Not a CTranslate2 model directory: \(modelFile.path) is missing.")
        }
        // Only the header is needed here; the weights are parsed by `readBinary()` when loading,
        // and dropped once converted, so the raw file is not kept in memory twice.
        let version = try ModelDirectory.binaryVersion(modelFile)
        let configFile = url.appendingPathComponent("config.json")
        if FileManager.default.fileExists(atPath: configFile.path) {
            config = try ModelConfig(json: try readFile(configFile), fileName: configFile.path)
        } else if version >= 6 {
            throw TranslationError(.engineFailure, "Incomplete model directory \(url.path): config.json is missing (required for model.bin version 6).")
        } else {
            config = ModelConfig()
        }
        let unk = config.unkToken
        if let shared = try Vocabulary.load(directory: url, name: "shared_vocabulary", unkToken: unk) {
            sourceVocabulary = shared
            targetVocabulary = shared
        } else if let source = try Vocabulary.load(directory: url, name: "source_vocabulary", unkToken: unk),
                  let target = try Vocabulary.load(directory: url, name: "target_vocabulary", unkToken: unk) {
            sourceVocabulary = source
            targetVocabulary = target
        } else {
            throw TranslationError(.engineFailure, "Incomplete model directory \(url.path): no shared_vocabulary.json/.txt nor source_vocabulary + target_vocabulary.")
        }
    }
}
