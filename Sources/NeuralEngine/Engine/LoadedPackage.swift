import Foundation
import NeuralCompute
import TranslationCore

/// A package ready to translate text: SentencePiece, the model, and the text handling.
///
/// Texts are cut into sentences (``SentenceSplitter``, as Argos Translate translates sentence by
/// sentence); the text between sentences (spaces, line breaks) is kept exactly as it was. A
/// sentence longer than the model's input limit is cut into several sources at piece
/// boundaries, so no text is ever dropped by CTranslate2-style input truncation.
final class LoadedPackage: Sendable {
    let translator: Translator
    let sentencePiece: SentencePiece

    /// Loads the package in `directory`, its model prepared for and run on `backend`.
    init(directory: URL, backend: any ComputeBackend) throws {
        let package = try ArgosPackage(directory: directory)
        sentencePiece = try SentencePiece(path: package.sentencePieceModel.path)
        translator = try Translator(modelDirectory: package.modelDirectory, backend: backend)
    }

    /// Texts as model inputs, and how to put the outputs back together.
    struct Prepared: Sendable {
        /// SentencePiece pieces of every source, over all texts.
        var sources: [[String]] = []
        /// For each text: its pieces in order, either kept text or the indices of the sources
        /// that make up one sentence (joined with a space: a sentence cut at the input limit).
        var layout: [[Part]] = []

        enum Part: Sendable {
            case kept(String)
            case translated([Int])
        }
    }

    /// Splits and tokenizes `texts` for `options`' input limit.
    func prepare(_ texts: [String], options: DecodingOptions) throws -> Prepared {
        // Room for the special tokens the model adds (bos/eos).
        let limit = max(1, min(options.maxInputLength, 1024) - 2)
        var prepared = Prepared()
        for text in texts {
            var parts: [Prepared.Part] = []
            for segment in SentenceSplitter.segments(text) {
                switch segment {
                case .gap(let gap):
                    parts.append(.kept(String(gap)))
                case .sentence(let sentence):
                    let pieces = try sentencePiece.encode(String(sentence))
                    var indices: [Int] = []
                    var start = 0
                    while start < pieces.count {
                        let end = min(start + limit, pieces.count)
                        indices.append(prepared.sources.count)
                        prepared.sources.append(Array(pieces[start..<end]))
                        start = end
                    }
                    parts.append(indices.isEmpty ? .kept("") : .translated(indices))
                }
            }
            prepared.layout.append(parts)
        }
        return prepared
    }

    /// The texts from the translated target pieces of `prepared.sources` (same order).
    func assemble(_ prepared: Prepared, targets: [[String]]) throws -> [String] {
        let decoded = try targets.map { try sentencePiece.decode($0) }
        return prepared.layout.map { parts in
            parts.map { part in
                switch part {
                case .kept(let text): return text
                case .translated(let indices): return indices.map { decoded[$0] }.joined(separator: " ")
                }
            }.joined()
        }
    }
}
