import Foundation
import NeuralCompute

extension Search {
    /// Beam search: 2×beam candidates per sentence each step, finished hypotheses replaced by
    /// the next non-final candidates; a sentence stops after `beam` finished hypotheses (or the
    /// top beam finishing when the length penalty is 0), or at the maximum length.
    func beam(_ encoded: EncoderOutput) -> [Hypothesis] {
        let batch = encoded.lengths.count
        let k = options.beamSize, c = 2 * k
        let state = DecoderState(weights: weights, encoded: encoded, rowBatch: Array(0..<batch), workspace: workspace)
        let logits = FloatBuffer()
        var finished = [[Hypothesis]](repeating: [], count: batch)
        var results = [Hypothesis](repeating: Hypothesis(ids: [], score: 0), count: batch)
        var batchOffset = Array(0..<batch)
        var topBeamFinished = [Bool](repeating: false, count: batch)
        var inputs = [Int](repeating: startID, count: batch)
        var beamScores: [Float] = []          // per row, once expanded
        var sequences: [[Int]] = [[Int]](repeating: [], count: batch)
        // The first step runs on one row per sentence, then each sentence has k rows.
        var expanded = false
        for step in 0..<options.maxDecodingLength {
            weights.decodeStep(ids: inputs, step: step, state: state, logits: logits, workspace: workspace)
            let rowsPerBatch = expanded ? k : 1
            let current = batchOffset.count
            let allCandidates = scoreCandidates(logits: logits.pointer, sentences: current, rowsPerBatch: rowsPerBatch,
                                                count: c, step: step, sequences: sequences,
                                                beamScores: expanded ? beamScores : nil)
            let isLast = step + 1 == options.maxDecodingLength
            var nextInputs: [Int] = [], nextScores: [Float] = [], nextSequences: [[Int]] = [], origins: [Int] = []
            var keptBatches: [Int] = []
            for i in 0..<current {
                let candidates = allCandidates[i]
                let owner = batchOffset[i]
                var secondary = k
                var active: [Int] = []
                for b in 0..<k {
                    let cand = candidates[b]
                    var next = b
                    if cand.word == endID || isLast {
                        if b == 0 { topBeamFinished[i] = true }
                        // The end token stays in the hypothesis (and its length) until `best(of:)`,
                        // as with CTranslate2's include_eos_in_hypotheses.
                        let tokens = sequences[cand.origin] + [cand.word]
                        finished[owner].append(Hypothesis(ids: tokens, score: cand.score))
                        for j in secondary..<c where candidates[j].word != endID {
                            next = j
                            secondary = j + 1
                            break
                        }
                    }
                    active.append(next)
                }
                let done: Bool
                if isLast {
                    done = true
                } else if options.lengthPenalty == 0 {
                    done = topBeamFinished[i] && !finished[owner].isEmpty
                } else {
                    done = finished[owner].count >= k
                }
                if done {
                    results[owner] = best(of: finished[owner])
                    continue
                }
                keptBatches.append(i)
                for a in active {
                    let cand = candidates[a]
                    nextInputs.append(cand.word)
                    nextScores.append(cand.score)
                    nextSequences.append(sequences[cand.origin] + [cand.word])
                    origins.append(cand.origin)
                }
            }
            if keptBatches.isEmpty { break }
            batchOffset = keptBatches.map { batchOffset[$0] }
            topBeamFinished = keptBatches.map { topBeamFinished[$0] }
            state.select(origins)
            inputs = nextInputs
            beamScores = nextScores
            sequences = nextSequences
            expanded = true
        }
        return results
    }

    /// Each sentence's `count` best (word, score, origin row) over its rows' log-probabilities plus
    /// their beam scores. Sentences are independent, so they are split over the workspace's
    /// threads (this was serial work beside the parallel GEMMs); each one's result is the same.
    private func scoreCandidates(logits: UnsafeMutablePointer<Float>, sentences: Int, rowsPerBatch: Int, count c: Int,
                                 step: Int, sequences: [[Int]], beamScores: [Float]?)
        -> [[(word: Int, score: Float, origin: Int)]] {
        let v = weights.targetVocabularySize
        var all = [[(word: Int, score: Float, origin: Int)]](repeating: [], count: sentences)
        all.withUnsafeMutableBufferPointer { out in
            // Each range writes only its own sentences' slots and logits rows.
            let slots = UncheckedSendable(value: out)
            let rows = UncheckedSendable(value: logits)
            Parallel.items(sentences, threads: workspace.threads) { range in
                for i in range {
                    for r in (i * rowsPerBatch)..<((i + 1) * rowsPerBatch) {
                        let row = rows.value + r * v
                        prepare(row, step: step, sequence: sequences[r], logSoftmax: true)
                        if let beamScores {
                            let s = beamScores[r]
                            for j in 0..<v { row[j] += s }
                        }
                    }
                    slots.value[i] = LogitsRules.topK(rows.value + i * rowsPerBatch * v, count: rowsPerBatch * v, k: c)
                        .map { cand in (cand.index % v, cand.score, i * rowsPerBatch + cand.index / v) }
                }
            }
        }
        return all
    }

    /// Applies the length penalty and keeps the best (CTranslate2 `finalize_result`); trailing end
    /// tokens are dropped as `run_translation` does.
    private func best(of hypotheses: [Hypothesis]) -> Hypothesis {
        var top: Hypothesis?
        for h in hypotheses {
            let scored = Hypothesis(ids: h.ids, score: finalScore(h.score, length: h.ids.count))
            if top == nil || scored.score > top!.score { top = scored }
        }
        var result = top ?? Hypothesis(ids: [], score: 0)
        while result.ids.last == endID { result.ids.removeLast() }
        return result
    }
}
