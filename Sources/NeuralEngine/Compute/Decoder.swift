import Foundation
import NeuralCompute

extension TransformerWeights {
    /// One decoder step for every row of `state`: feeds `ids` (one per row) at position `step`
    /// and writes the logits [rows, V] into `logits`.
    func decodeStep(ids: [Int], step: Int, state: DecoderState, logits: FloatBuffer, workspace: Workspace) {
        let n = state.rows, d = depth
        state.prepareStep()
        var x = [Float](repeating: 0, count: n * d)
        x.withUnsafeMutableBufferPointer { xb in
            for (r, id) in ids.enumerated() {
                embed(decoderEmbedding, id: id, position: step, into: xb.baseAddress! + r * d)
            }
        }
        var y = [Float](repeating: 0, count: n * d)
        var z = [Float](repeating: 0, count: n * d)
        var normed = [Float](repeating: 0, count: n * d)
        var proj = [Float](repeating: 0, count: n * 3 * d)
        var context = [Float](repeating: 0, count: n * d)
        // Attention scratch: one score per attended position (each thread part has its own).
        let scoreRoom = max(step + 1, state.memoryLengths.max() ?? 1)
        for (l, layer) in decoderLayers.enumerated() {
            // Self-attention: x → y, appending this position's keys and values to the cache.
            let sa = layer.selfAttention
            normalizedProjection(sa, input: x, normed: &normed, output: &proj, rows: n, workspace: workspace)
            proj.withUnsafeBufferPointer { pp in
                context.withUnsafeMutableBufferPointer { cp in
                    // Rows are independent: each writes its own cache slot and context row.
                    Parallel.items(n, threads: workspace.threads, minimumPerPart: 8) { rows in
                        var scores = [Float](repeating: 0, count: scoreRoom)
                        scores.withUnsafeMutableBufferPointer { sp in
                            for r in rows {
                                let row = pp.baseAddress! + r * 3 * d
                                let cache = state.cache(layer: l, row: r)
                                (cache.keys + step * d).update(from: row + d, count: d)
                                (cache.values + step * d).update(from: row + 2 * d, count: d)
                                attend(query: row, keys: cache.keys, values: cache.values, stride: d,
                                       count: step + 1, context: cp.baseAddress! + r * d, scores: sp.baseAddress!)
                            }
                        }
                    }
                }
            }
            outputProjection(sa, context: context, residual: x, output: &y, rows: n, workspace: workspace)
            // Cross-attention: y → z.
            let ca = layer.crossAttention
            normalizedProjection(ca, input: y, normed: &normed, output: &proj, rows: n, workspace: workspace)
            proj.withUnsafeBufferPointer { pp in
                context.withUnsafeMutableBufferPointer { cp in
                    state.memoryKV[l].withUnsafeBufferPointer { kv in
                        Parallel.items(n, threads: workspace.threads, minimumPerPart: 8) { rows in
                            var scores = [Float](repeating: 0, count: scoreRoom)
                            scores.withUnsafeMutableBufferPointer { sp in
                                // A sentence's beam rows are adjacent and attend over the same
                                // memory: they go together, head by head, so each head's keys
                                // and values are read from memory once for all of them.
                                var r = rows.lowerBound
                                while r < rows.upperBound {
                                    let b = state.rowBatch[r]
                                    var end = r + 1
                                    while end < rows.upperBound && state.rowBatch[end] == b { end += 1 }
                                    let base = kv.baseAddress! + state.memoryOffsets[b] * 2 * d
                                    attend(query: pp.baseAddress! + r * d, rows: end - r, keys: base, values: base + d, stride: 2 * d,
                                           count: state.memoryLengths[b], context: cp.baseAddress! + r * d,
                                           scores: sp.baseAddress!)
                                    r = end
                                }
                            }
                        }
                    }
                }
            }
            outputProjection(ca, context: context, residual: y, output: &z, rows: n, workspace: workspace)
            // Feed-forward: z → x.
            feedForward(layer.ffn, input: &z, output: &x, rows: n, workspace: workspace)
        }
        state.commitStep()
        if let norm = decoderNorm {
            x.withUnsafeMutableBufferPointer { norm.apply($0.baseAddress!, $0.baseAddress!, rows: n, on: backend) }
        }
        let out = logits.reserve(n * projection.outputs)
        x.withUnsafeBufferPointer { projection.forward($0.baseAddress!, rows: n, into: out, on: backend, workspace: workspace) }
    }

    /// The first projection of an attention sublayer, after its layer norm when pre-norm.
    private func normalizedProjection(_ attn: AttentionWeights<Backend>, input: [Float], normed: inout [Float],
                                      output: inout [Float], rows: Int, workspace: Workspace) {
        input.withUnsafeBufferPointer { ip in
            normed.withUnsafeMutableBufferPointer { np in
                output.withUnsafeMutableBufferPointer { op in
                    var src = ip.baseAddress!
                    if preNorm {
                        attn.norm.apply(src, np.baseAddress!, rows: rows, on: backend)
                        src = UnsafePointer(np.baseAddress!)
                    }
                    attn.query.forward(src, rows: rows, into: op.baseAddress!, on: backend, workspace: workspace)
                }
            }
        }
    }

    /// The output projection with the residual, then the layer norm when post-norm.
    private func outputProjection(_ attn: AttentionWeights<Backend>, context: [Float], residual: [Float],
                                  output: inout [Float], rows: Int, workspace: Workspace) {
        context.withUnsafeBufferPointer { cp in
            residual.withUnsafeBufferPointer { rp in
                output.withUnsafeMutableBufferPointer { op in
                    attn.output.forward(cp.baseAddress!, rows: rows, into: op.baseAddress!, residual: rp.baseAddress!, on: backend, workspace: workspace)
                    if !preNorm { attn.norm.apply(op.baseAddress!, op.baseAddress!, rows: rows, on: backend) }
                }
            }
        }
    }

    /// Multi-head attention of `rows` query rows (adjacent, `depth` apart, their contexts too)
    /// over the same `count` key/value rows (row stride `stride`). Each (row, head) is computed
    /// exactly as alone; the heads run outermost so one head's keys and values stay in cache
    /// for every row.
    private func attend(query: UnsafePointer<Float>, rows: Int = 1, keys: UnsafePointer<Float>, values: UnsafePointer<Float>,
                        stride: Int, count: Int, context: UnsafeMutablePointer<Float>, scores: UnsafeMutablePointer<Float>) {
        let dh = depth / heads
        guard count > 0 else {
            // An empty source: CTranslate2's masked softmax gives all-zero weights, so a zero context.
            context.update(repeating: 0, count: rows * depth)
            return
        }
        let scale = 1 / Float(dh).squareRoot()
        for h in 0..<heads {
            let off = h * dh
            for i in 0..<rows {
                // One query row per sequence and head: oneDNN's m = 1 order (see AttentionKernels).
                backend.attentionScores(q: query + i * depth + off, ldq: dh, m: 1, keys: keys + off, ldk: stride, n: count, dh: dh,
                                        alpha: scale, order: .lanes8, out: scores, ldo: count, scratch: scores)
                backend.softmax(scores, count: count)
                backend.attentionWeightedSum(weights: scores, ldw: count, m: 1, values: values + off, ldv: stride,
                                             n: count, dh: dh, out: context + i * depth + off, ldo: dh)
            }
        }
    }
}
