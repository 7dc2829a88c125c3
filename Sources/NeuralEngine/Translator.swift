import Foundation
import NeuralCompute
import TranslationCore

/// A loaded CTranslate2 sequence-to-sequence model: weights (shared, immutable) plus the
/// vocabularies and configuration. Translation runs synchronously on the calling thread with
/// that thread's `Workspace`; `NeuralEngine` calls it from its dedicated worker threads only.
public final class Translator: Sendable {
    /// The model directory it was loaded from.
    public let directory: ModelDirectory
    /// The weights, prepared for the backend that runs them.
    let weights: any LoadedModel

    /// Loads the model directory at `url`, for this CPU's backend (`CPUBackend.default`).
    /// - Throws: ``TranslationError`` naming the file and the problem.
    public convenience init(modelDirectory url: URL) throws {
        try self.init(modelDirectory: url, backend: CPUBackend.default)
    }

    /// Loads the model directory at `url` with its weights prepared for `backend`, which then
    /// runs all of its inference.
    /// - Throws: ``TranslationError`` naming the file and the problem, or saying why `backend`
    ///   cannot run on this machine.
    public init(modelDirectory url: URL, backend: some ComputeBackend) throws {
        if let reason = backend.unavailableReason { throw TranslationError(.engineFailure, reason) }
        directory = try ModelDirectory(url: url)
        weights = try TransformerWeights(binary: directory.readBinary(), config: directory.config,
                                         file: url.appendingPathComponent("model.bin").path, backend: backend)
        guard weights.sourceVocabularySize == directory.sourceVocabulary.count,
              weights.targetVocabularySize == directory.targetVocabulary.count else {
            throw TranslationError(.engineFailure, "Inconsistent model \(url.path): vocabularies have \(directory.sourceVocabulary.count)/\(directory.targetVocabulary.count) tokens, the weights expect \(weights.sourceVocabularySize)/\(weights.targetVocabularySize).")
        }
    }

    /// Whether the weights run as int8.
    public var isQuantized: Bool { weights.quantized }

    /// Translates token sequences; returns the best target tokens and score for each.
    /// Empty inputs are translated as CTranslate2 does (the source is just its special tokens).
    /// - Throws: ``TranslationError`` for invalid options.
    /// `threads` splits the Swift kernels (int8 and few-row GEMMs) over that many threads.
    public func translate(_ batch: [[String]], options: DecodingOptions, threads: Int = 1) throws -> [(tokens: [String], score: Float)] {
        let workspace = Workspace()
        workspace.threads = threads
        return try translate(batch, options: options, workspace: workspace)
    }

    func translate(_ batch: [[String]], options: DecodingOptions, workspace: Workspace) throws -> [(tokens: [String], score: Float)] {
        guard options.beamSize >= 1 else { throw TranslationError.invalidArgument("beam size", given: "\(options.beamSize)", accepted: "an integer ≥ 1") }
        guard options.maxDecodingLength >= 1 else { throw TranslationError.invalidArgument("maximum decoding length", given: "\(options.maxDecodingLength)", accepted: "an integer ≥ 1") }
        guard options.noRepeatNgramSize >= 0 else { throw TranslationError.invalidArgument("no-repeat n-gram size", given: "\(options.noRepeatNgramSize)", accepted: "an integer ≥ 0 (0 disables)") }
        guard options.lengthPenalty.isFinite else { throw TranslationError.invalidArgument("length penalty", given: "\(options.lengthPenalty)", accepted: "a finite number") }
        // Beam search takes 2×beam candidates from the first step's single beam.
        guard options.beamSize == 1 || 2 * options.beamSize <= weights.targetVocabularySize else {
            throw TranslationError.invalidArgument("beam size", given: "\(options.beamSize)", accepted: "at most \(weights.targetVocabularySize / 2) for this model (half its vocabulary)")
        }
        if batch.isEmpty { return [] }
        let config = directory.config
        let target = directory.targetVocabulary
        guard let start = config.decoderStartToken, target.contains(start) else {
            throw TranslationError(.engineFailure, "Model \(directory.url.path) has no decoder start token in its target vocabulary.")
        }
        // Decoding past the position table would index outside it; cap like CTranslate2 errors.
        let positionLimit = weights.targetPositionCount
        guard options.maxDecodingLength <= positionLimit else {
            throw TranslationError.invalidArgument("maximum decoding length", given: "\(options.maxDecodingLength)", accepted: "at most \(positionLimit) for this model")
        }
        let source = directory.sourceVocabulary
        let maxInput = min(options.maxInputLength, weights.sourcePositionCount)
        let ids: [[Int]] = batch.map { tokens in
            var row: [Int] = []
            if config.addSourceBos { row.append(source.id(config.bosToken)) }
            row += tokens.map { source.id($0) }
            if config.addSourceEos { row.append(source.id(config.eosToken)) }
            if maxInput > 0 && row.count > maxInput {
                // Keep the end token in the last position (CTranslate2 Vocabulary::to_ids).
                let eos = source.id(config.eosToken)
                let hadEos = row.last == eos
                row.removeLast(row.count - maxInput)
                if hadEos { row[maxInput - 1] = eos }
            }
            return row
        }
        return weights.translate(ids, options: options, startID: target.id(start), endID: target.id(config.eosToken),
                                 workspace: workspace).map { h in (h.ids.map { target.tokens[$0] }, h.score) }
    }
}

extension Translator {
    /// Sets how many threads OpenBLAS uses for each GEMM. Process-wide (an OpenBLAS global):
    /// call it before translating, not while another thread translates.
    public static func setBLASThreads(_ count: Int) {
        CPUBackend.default.setLibraryThreads(count)
    }
}
