import Foundation
import NeuralCompute

/// The encoder output of one batch: rows of every sequence packed one after another
/// (no padding, like CTranslate2's CPU `Padder`), with each sequence's first row and length.
struct EncoderOutput {
    let memory: [Float]
    let offsets: [Int]
    let lengths: [Int]
}

extension TransformerWeights {
    /// Runs the encoder over `batch` (token ids, special tokens already added).
    func encode(_ batch: [[Int]], workspace: Workspace) -> EncoderOutput {
        let d = depth
        var offsets: [Int] = []
        var total = 0
        for seq in batch {
            offsets.append(total)
            total += seq.count
        }
        let lengths = batch.map(\.count)
        var x = [Float](repeating: 0, count: total * d)
        x.withUnsafeMutableBufferPointer { xb in
            for (b, seq) in batch.enumerated() {
                for (t, id) in seq.enumerated() {
                    embed(encoderEmbedding, id: id, position: t, into: xb.baseAddress! + (offsets[b] + t) * d)
                }
            }
        }
        var y = [Float](repeating: 0, count: total * d)
        var normed = [Float](repeating: 0, count: total * d)
        var qkv = [Float](repeating: 0, count: total * 3 * d)
        var context = [Float](repeating: 0, count: total * d)
        let maxLength = lengths.max() ?? 0
        // Room for the scores [L, L] and the keys transposed [dh, L rounded up to 8].
        var scores = [Float](repeating: 0, count: maxLength * maxLength + (maxLength + 7) / 8 * 8 * d)
        for layer in encoderLayers {
            // Self-attention sublayer: x → y.
            let attn = layer.selfAttention
            x.withUnsafeBufferPointer { xp in
                let xin = xp.baseAddress!
                normed.withUnsafeMutableBufferPointer { np in
                    qkv.withUnsafeMutableBufferPointer { qp in
                        var input = xin
                        if preNorm {
                            attn.norm.apply(xin, np.baseAddress!, rows: total, on: backend)
                            input = UnsafePointer(np.baseAddress!)
                        }
                        attn.query.forward(input, rows: total, into: qp.baseAddress!, on: backend, workspace: workspace)
                    }
                }
                qkv.withUnsafeBufferPointer { qp in
                    context.withUnsafeMutableBufferPointer { cp in
                        scores.withUnsafeMutableBufferPointer { sp in
                            for b in 0..<batch.count {
                                selfAttentionBlock(qkv: qp.baseAddress! + offsets[b] * 3 * d, length: lengths[b],
                                                   paddedLength: maxLength, context: cp.baseAddress! + offsets[b] * d,
                                                   scores: sp.baseAddress!)
                            }
                        }
                    }
                }
                context.withUnsafeBufferPointer { cp in
                    y.withUnsafeMutableBufferPointer { yp in
                        attn.output.forward(cp.baseAddress!, rows: total, into: yp.baseAddress!, residual: xin, on: backend, workspace: workspace)
                        if !preNorm { attn.norm.apply(yp.baseAddress!, yp.baseAddress!, rows: total, on: backend) }
                    }
                }
            }
            // Feed-forward sublayer: y → x.
            feedForward(layer.ffn, input: &y, output: &x, rows: total, workspace: workspace)
        }
        if let norm = encoderNorm {
            x.withUnsafeMutableBufferPointer { norm.apply($0.baseAddress!, $0.baseAddress!, rows: total, on: backend) }
        }
        return EncoderOutput(memory: x, offsets: offsets, lengths: lengths)
    }

    /// Embedding row × scale + position row.
    func embed(_ stage: EmbeddingStage<Backend>, id: Int, position: Int, into out: UnsafeMutablePointer<Float>) {
        let d = depth
        stage.table.gather(id, into: out)
        if let s = stage.scale { for j in 0..<d { out[j] *= s } }
        stage.positions.withUnsafeBufferPointer { p in
            let row = p.baseAddress! + min(position, stage.positionCount - 1) * d
            for j in 0..<d { out[j] += row[j] }
        }
    }

    /// Multi-head attention of one sequence over itself. `qkv` holds its rows [L, 3D] (Q;K;V),
    /// `context` receives [L, D]; `scores` has room for L×L plus the transposed keys.
    /// `paddedLength` is the longest sequence of the batch: CTranslate2 pads the batch for
    /// attention, and oneDNN's summation order depends on that row count (AttentionKernels).
    func selfAttentionBlock(qkv: UnsafePointer<Float>, length: Int, paddedLength: Int,
                            context: UnsafeMutablePointer<Float>, scores: UnsafeMutablePointer<Float>) {
        let d = depth, dh = d / heads
        let scale = 1 / Float(dh).squareRoot()
        let order = AttentionKernels.Order.forRows(paddedLength)
        for h in 0..<heads {
            let q = qkv + h * dh, k = qkv + d + h * dh, v = qkv + 2 * d + h * dh
            backend.attentionScores(q: q, ldq: 3 * d, m: length, keys: k, ldk: 3 * d, n: length, dh: dh,
                                    alpha: scale, order: order, out: scores, ldo: length,
                                    scratch: scores + length * length)
            for r in 0..<length { backend.softmax(scores + r * length, count: length) }
            backend.attentionWeightedSum(weights: scores, ldw: length, m: length, values: v, ldv: 3 * d,
                                         n: length, dh: dh, out: context + h * dh, ldo: d)
        }
    }

    /// FFN sublayer: output = input + W2·act(W1·LN(input)) (pre-norm) or
    /// LN(input + W2·act(W1·input)) (post-norm).
    func feedForward(_ ffn: FeedForwardWeights<Backend>, input: inout [Float], output: inout [Float], rows: Int,
                     workspace: Workspace) {
        var inner = [Float](repeating: 0, count: rows * ffn.inner.outputs)
        var normed = [Float](repeating: 0, count: preNorm ? rows * depth : 0)
        input.withUnsafeBufferPointer { ip in
            inner.withUnsafeMutableBufferPointer { hp in
                if preNorm {
                    normed.withUnsafeMutableBufferPointer { np in
                        ffn.norm.apply(ip.baseAddress!, np.baseAddress!, rows: rows, on: backend)
                        ffn.inner.forward(UnsafePointer(np.baseAddress!), rows: rows, into: hp.baseAddress!,
                                          activation: activation, on: backend, workspace: workspace)
                    }
                } else {
                    ffn.inner.forward(ip.baseAddress!, rows: rows, into: hp.baseAddress!,
                                      activation: activation, on: backend, workspace: workspace)
                }
            }
        }
        inner.withUnsafeBufferPointer { hp in
            input.withUnsafeBufferPointer { ip in
                output.withUnsafeMutableBufferPointer { op in
                    ffn.outer.forward(hp.baseAddress!, rows: rows, into: op.baseAddress!, residual: ip.baseAddress!, on: backend, workspace: workspace)
                    if !preNorm { ffn.norm.apply(op.baseAddress!, op.baseAddress!, rows: rows, on: backend) }
                }
            }
        }
    }
}
