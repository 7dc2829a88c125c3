import Foundation
import NeuralCompute

/// Greedy and beam search over `TransformerWeights`, following CTranslate2's
/// `GreedySearch::search` and `BeamSearch::search` (src/decoding.cc) step for step.
struct Search<Backend: ComputeBackend> {
    let weights: TransformerWeights<Backend>
    let options: DecodingOptions
    let startID: Int
    let endID: Int
    let workspace: Workspace

    func run(_ encoded: EncoderOutput) -> [Hypothesis] {
        options.beamSize <= 1 ? greedy(encoded) : beam(encoded)
    }

    /// Disables the end token before the minimum length and n-gram repeats, then log-softmax.
    func prepare(_ row: UnsafeMutablePointer<Float>, step: Int, sequence: [Int], logSoftmax: Bool) {
        let v = weights.targetVocabularySize
        if step < options.minDecodingLength { row[endID] = LogitsRules.disabled }
        LogitsRules.applyNoRepeatNgram(options.noRepeatNgramSize, sequence: sequence, row: row)
        if logSoftmax { weights.backend.logSoftmax(row, count: v) }
    }

    func finalScore(_ score: Float, length: Int) -> Float {
        score / powf(Float(length), options.lengthPenalty)
    }

    private func greedy(_ encoded: EncoderOutput) -> [Hypothesis] {
        let batch = encoded.lengths.count
        let v = weights.targetVocabularySize
        let state = DecoderState(weights: weights, encoded: encoded, rowBatch: Array(0..<batch), workspace: workspace)
        let logits = FloatBuffer()
        var results = [Hypothesis](repeating: Hypothesis(ids: [], score: 0), count: batch)
        var rowOwner = Array(0..<batch)        // result index of each live row
        var inputs = [Int](repeating: startID, count: batch)
        var sequences = [[Int]](repeating: [], count: batch)
        var scores = [Float](repeating: 0, count: batch)
        for step in 0..<options.maxDecodingLength {
            weights.decodeStep(ids: inputs, step: step, state: state, logits: logits, workspace: workspace)
            var keep: [Int] = []
            for r in 0..<rowOwner.count {
                let row = logits.pointer + r * v
                prepare(row, step: step, sequence: sequences[r], logSoftmax: options.returnScores)
                let best = LogitsRules.argmax(row, count: v)
                if options.returnScores { scores[r] += row[best] }
                let owner = rowOwner[r]
                // The end token counts in the length penalty: CTranslate2's translator decodes with
                // include_eos_in_hypotheses and strips the end token afterwards.
                results[owner].ids.append(best)
                if best == endID || step + 1 == options.maxDecodingLength {
                    results[owner].score = options.returnScores
                        ? finalScore(scores[r], length: results[owner].ids.count) : 0
                    if best == endID { results[owner].ids.removeLast() }
                } else {
                    keep.append(r)
                    inputs[r] = best
                    sequences[r].append(best)
                }
            }
            if keep.isEmpty { break }
            if keep.count != rowOwner.count {
                rowOwner = keep.map { rowOwner[$0] }
                inputs = keep.map { inputs[$0] }
                sequences = keep.map { sequences[$0] }
                scores = keep.map { scores[$0] }
                state.select(keep)
            }
        }
        return results
    }
}
