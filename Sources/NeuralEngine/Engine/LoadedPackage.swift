import Foundation
import TranslationCore

/// A package ready to translate text: SentencePiece, the model, and the text handling.
///
/// Texts are split at line breaks (kept as they are); each line is tokenized, and a line longer
/// than the model's input limit is cut into several sources at piece boundaries, so no text is
/// ever dropped by CTranslate2-style input truncation.
final class LoadedPackage: Sendable {
    let translator: Translator
    let sentencePiece: SentencePiece

    init(directory: URL) throws {
        let package = try ArgosPackage(directory: directory)
        sentencePiece = try SentencePiece(path: package.sentencePieceModel.path)
        translator = try Translator(modelDirectory: package.modelDirectory)
    }

    func translate(_ texts: [String], options: DecodingOptions, workspace: Workspace) throws -> [String] {
        // Room for the special tokens the model adds (bos/eos).
        let limit = max(1, min(options.maxInputLength, 1024) - 2)
        var sources: [[String]] = []
        // For each text: its lines, each line a list of source indices (empty line → none).
        var layout: [[[Int]]] = []
        for text in texts {
            var lines: [[Int]] = []
            // "\r\n" is one Character, so both breaks are named; lines are rejoined with "\n".
            for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { lines.append([]); continue }
                let pieces = try sentencePiece.encode(String(trimmed))
                var indices: [Int] = []
                var start = 0
                while start < pieces.count {
                    let end = min(start + limit, pieces.count)
                    indices.append(sources.count)
                    sources.append(Array(pieces[start..<end]))
                    start = end
                }
                lines.append(indices)
            }
            layout.append(lines)
        }
        let results = sources.isEmpty ? [] : try translator.translate(sources, options: options, workspace: workspace)
        let decoded = try results.map { try sentencePiece.decode($0.tokens) }
        return layout.map { lines in
            lines.map { $0.map { decoded[$0] }.joined(separator: " ") }.joined(separator: "\n")
        }
    }
}
