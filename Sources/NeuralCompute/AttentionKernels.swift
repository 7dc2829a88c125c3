/// The two products of dot-product attention, summed in the orders oneDNN's sgemm uses: on x86
/// CPUs CTranslate2 computes them with oneDNN, per sequence and head, so matching its order
/// makes Glossa's attention bit-identical to CTranslate2's.
///
/// The orders were read off `dnnl_sgemm` (exported by the CTranslate2 wheel) with every product
/// rounded by one fused multiply-add; see docs/neural-engine.md. For C = α·A·Bᵀ with m rows:
/// m ≥ 16: one FMA chain over k in order; 2 ≤ m ≤ 15: 16 chains (k mod 16) added by halving
/// 16→8→4→2→1; m = 1: 8 chains (k mod 8) added pairwise (lane ±1, then ±4, then ±2); α
/// multiplies the sum. For C = A·B: one FMA chain over k in order, for every m.
public enum AttentionKernels {
    /// How a row of scores is summed.
    public enum Order: Sendable {
        case chain, lanes16, lanes8

        /// oneDNN's choice for a product with `rows` rows (CTranslate2 passes the padded
        /// length of the batch in the encoder, and 1 in a decoder step).
        public static func forRows(_ rows: Int) -> Order { rows >= 16 ? .chain : rows == 1 ? .lanes8 : .lanes16 }
    }

    typealias F8 = SIMD8<Float>

    /// scores[i·ldo + t] = alpha · Σₚ q[i·ldq + p]·keys[t·ldk + p] for i < m, t < n, p < dh.
    /// `scratch` needs dh·(n rounded up to 8) floats for `.chain` (other orders do not use it).
    static func scores(q: UnsafePointer<Float>, ldq: Int, m: Int, keys: UnsafePointer<Float>, ldk: Int, n: Int,
                       dh: Int, alpha: Float, order: Order, out: UnsafeMutablePointer<Float>, ldo: Int,
                       scratch: UnsafeMutablePointer<Float>) {
        switch order {
        case .chain:
            // Keys transposed to [dh, n8] so eight keys' chains advance together, one per lane.
            let n8 = (n + 7) / 8 * 8
            for p in 0..<dh {
                for t in 0..<n8 { scratch[p * n8 + t] = t < n ? keys[t * ldk + p] : 0 }
            }
            for i in 0..<m {
                let qi = q + i * ldq
                var t = 0
                while t < n {
                    var acc = F8()
                    var column = UnsafePointer(scratch + t)
                    for p in 0..<dh {
                        acc = VectorMath.fma(F8(repeating: qi[p]), VectorMath.load(column), acc)
                        column += n8
                    }
                    let scaled = acc * alpha
                    if n - t >= 8 {
                        VectorMath.store(scaled, out + i * ldo + t)
                    } else {
                        for lane in 0..<(n - t) { out[i * ldo + t + lane] = scaled[lane] }
                    }
                    t += 8
                }
            }
        case .lanes16:
            // Sixteen chains held as two eight-lane halves (lanes 0–7 and 8–15).
            for i in 0..<m {
                let qi = q + i * ldq
                for t in 0..<n {
                    let kt = keys + t * ldk
                    var low = F8(), high = F8()
                    var p = 0
                    while p < dh {
                        low = VectorMath.fma(load8(qi + p, dh - p), load8(kt + p, dh - p), low)
                        if p + 8 < dh { high = VectorMath.fma(load8(qi + p + 8, dh - p - 8), load8(kt + p + 8, dh - p - 8), high) }
                        p += 16
                    }
                    // Halving: lanes i and i+8, then i+4, i+2, i+1.
                    let h8 = low + high
                    let h4 = h8.lowHalf + h8.highHalf
                    let h2 = h4.lowHalf + h4.highHalf
                    out[i * ldo + t] = (h2[0] + h2[1]) * alpha
                }
            }
        case .lanes8:
            let whole = dh & ~7
            // Lane ±1, then ±4, then ±2.
            @inline(__always) func reduced(_ acc: F8) -> Float {
                ((acc[0] + acc[1]) + (acc[4] + acc[5])) + ((acc[2] + acc[3]) + (acc[6] + acc[7]))
            }
            for i in 0..<m {
                let qi = q + i * ldq
                var t = 0
                // Four keys at a time: four independent chains hide the FMA latency that one
                // key's chain of dh/8 dependent FMAs would wait on. Each key's chain and its
                // reduction are the single-key ones, so every score is the same float.
                if whole == dh {
                    while t + 4 <= n {
                        let k0 = keys + t * ldk, k1 = k0 + ldk, k2 = k1 + ldk, k3 = k2 + ldk
                        var a0 = F8(), a1 = F8(), a2 = F8(), a3 = F8()
                        var p = 0
                        while p < dh {
                            let qp = VectorMath.load(qi + p)
                            a0 = VectorMath.fma(qp, VectorMath.load(k0 + p), a0)
                            a1 = VectorMath.fma(qp, VectorMath.load(k1 + p), a1)
                            a2 = VectorMath.fma(qp, VectorMath.load(k2 + p), a2)
                            a3 = VectorMath.fma(qp, VectorMath.load(k3 + p), a3)
                            p += 8
                        }
                        let o = out + i * ldo + t
                        o[0] = reduced(a0) * alpha
                        o[1] = reduced(a1) * alpha
                        o[2] = reduced(a2) * alpha
                        o[3] = reduced(a3) * alpha
                        t += 4
                    }
                }
                while t < n {
                    let kt = keys + t * ldk
                    var acc = F8()
                    var p = 0
                    while p < whole {
                        acc = VectorMath.fma(VectorMath.load(qi + p), VectorMath.load(kt + p), acc)
                        p += 8
                    }
                    if p < dh { acc = VectorMath.fma(load8(qi + p, dh - p), load8(kt + p, dh - p), acc) }
                    out[i * ldo + t] = reduced(acc) * alpha
                    t += 1
                }
            }
        }
    }

    /// out[i·ldo + j] = Σₜ weights[i·ldw + t]·values[t·ldv + j] for i < m, j < dh: one FMA
    /// chain over t in order per output, eight outputs at a time.
    static func weightedSum(weights: UnsafePointer<Float>, ldw: Int, m: Int, values: UnsafePointer<Float>, ldv: Int,
                            n: Int, dh: Int, out: UnsafeMutablePointer<Float>, ldo: Int) {
        for i in 0..<m {
            let w = weights + i * ldw
            let o = out + i * ldo
            var j = 0
            // Eight 8-wide column blocks per pass share each broadcast weight: eight independent
            // chains keep both FMA units busy (four wait on the FMA latency half the time); four
            // blocks for what is left. Every output is still one chain over t in order.
            while j + 64 <= dh {
                columnBlocks(8, weights: w, values: values + j, ldv: ldv, n: n, out: o + j)
                j += 64
            }
            while j + 32 <= dh {
                columnBlocks(4, weights: w, values: values + j, ldv: ldv, n: n, out: o + j)
                j += 32
            }
            while j < dh {
                let width = min(8, dh - j)
                var acc = F8()
                for t in 0..<n {
                    acc = VectorMath.fma(F8(repeating: w[t]), load8(values + t * ldv + j, width), acc)
                }
                for lane in 0..<width { o[j + lane] = acc[lane] }
                j += 8
            }
        }
    }

    /// out[8b + l] = Σₜ weights[t]·values[t·ldv + 8b + l] for `blocks` (4 or 8) 8-wide blocks,
    /// one FMA chain per output over t in order. `blocks` is a constant at each call site, so
    /// after inlining the unused accumulators disappear.
    @inline(__always)
    private static func columnBlocks(_ blocks: Int, weights w: UnsafePointer<Float>, values: UnsafePointer<Float>, ldv: Int,
                                     n: Int, out o: UnsafeMutablePointer<Float>) {
        var a0 = F8(), a1 = F8(), a2 = F8(), a3 = F8(), a4 = F8(), a5 = F8(), a6 = F8(), a7 = F8()
        var row = values
        for t in 0..<n {
            let wt = F8(repeating: w[t])
            a0 = VectorMath.fma(wt, VectorMath.load(row), a0)
            a1 = VectorMath.fma(wt, VectorMath.load(row + 8), a1)
            a2 = VectorMath.fma(wt, VectorMath.load(row + 16), a2)
            a3 = VectorMath.fma(wt, VectorMath.load(row + 24), a3)
            if blocks > 4 {
                a4 = VectorMath.fma(wt, VectorMath.load(row + 32), a4)
                a5 = VectorMath.fma(wt, VectorMath.load(row + 40), a5)
                a6 = VectorMath.fma(wt, VectorMath.load(row + 48), a6)
                a7 = VectorMath.fma(wt, VectorMath.load(row + 56), a7)
            }
            row += ldv
        }
        VectorMath.store(a0, o)
        VectorMath.store(a1, o + 8)
        VectorMath.store(a2, o + 16)
        VectorMath.store(a3, o + 24)
        if blocks > 4 {
            VectorMath.store(a4, o + 32)
            VectorMath.store(a5, o + 40)
            VectorMath.store(a6, o + 48)
            VectorMath.store(a7, o + 56)
        }
    }

    /// Up to eight floats from `p` (`available` of them exist), the rest 0.
    @inline(__always)
    private static func load8(_ p: UnsafePointer<Float>, _ available: Int) -> F8 {
        if available >= 8 { return UnsafeRawPointer(p).loadUnaligned(as: F8.self) }
        var v = F8()
        for lane in 0..<available { v[lane] = p[lane] }
        return v
    }
}
