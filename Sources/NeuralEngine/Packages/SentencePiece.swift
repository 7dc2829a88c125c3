import CSentencePieceShim
import Foundation
import TranslationCore

/// A SentencePiece model (Debian libsentencepiece through `CSentencePieceShim`).
///
/// SentencePieceProcessor's encode/decode are const and safe to call from several threads, so
/// one loaded model is shared; the pointer is freed once, in `deinit`.
public final class SentencePiece: @unchecked Sendable {
    private let model: OpaquePointer
    /// The file it was loaded from.
    public let path: String

    /// Loads the model file at `path`.
    /// - Throws: ``TranslationError`` naming the file.
    public init(path: String) throws {
        var error = [CChar](repeating: 0, count: 512)
        guard let m = spm_load(path, &error, error.count) else {
            throw TranslationError(.engineFailure, "Cannot load SentencePiece model \(path): \(Self.message(error)).")
        }
        model = m
        self.path = path
    }

    deinit { spm_free(model) }

    /// The NUL-terminated message the shim wrote into `buffer`.
    private static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Number of pieces.
    public var vocabularySize: Int { Int(spm_vocab_size(model)) }

    /// Splits `text` into pieces.
    public func encode(_ text: String) throws -> [String] {
        var error = [CChar](repeating: 0, count: 512)
        var pieces = spm_pieces()
        let bytes = Array(text.utf8)
        let rc = bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { spm_encode_pieces(model, $0.baseAddress, $0.count, &pieces, &error, error.count) }
        }
        guard rc == 0 else { throw TranslationError(.engineFailure, "SentencePiece encoding failed: \(Self.message(error)).") }
        defer { spm_free_pieces(&pieces) }
        var result: [String] = []
        result.reserveCapacity(pieces.count)
        var offset = 0
        for _ in 0..<pieces.count {
            let s = String(cString: pieces.data + offset)
            offset += strlen(pieces.data + offset) + 1
            result.append(s)
        }
        return result
    }

    /// Joins pieces back into text.
    public func decode(_ pieces: [String]) throws -> String {
        var packed: [CChar] = []
        for p in pieces {
            packed.append(contentsOf: p.utf8CString)   // includes the NUL separator
        }
        var error = [CChar](repeating: 0, count: 512)
        var text: UnsafeMutablePointer<CChar>?
        var length = 0
        let rc = packed.withUnsafeBufferPointer {
            spm_decode_pieces(model, $0.baseAddress, $0.count, pieces.count, &text, &length, &error, error.count)
        }
        guard rc == 0, let text else { throw TranslationError(.engineFailure, "SentencePiece decoding failed: \(Self.message(error)).") }
        defer { spm_free_buffer(text) }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
    }
}
