import NeuralKernelsAVX2
import NeuralKernelsAVX512

/// The CPU backend's matrix products. Each multiplies with the kernel its matrix was packed
/// for (`w.kernel`), not with this backend's current choice: the packed layout decides which
/// kernel can read it, and a matrix never changes layout after load.
extension CPUBackend {
    /// y[m, rows] = x[m, depth]·Wᵀ.
    public func multiply(_ w: FloatMatrix, _ x: UnsafePointer<Float>, m: Int, into y: UnsafeMutablePointer<Float>, threads: Int) {
        let rows = w.rows, depth = w.depth
        w.values.withUnsafeBufferPointer { values in
            let wp = values.baseAddress!
            switch w.kernel {
            case .avx512, .avx2:
                let avx512 = w.kernel == .avx512
                // Column splits follow the kernel's tiles: 3 blocks for 8+ rows (PackedSgemmTall), else 4.
                Parallel.columns(rows, threads: threads, granularity: m >= 8 ? 48 : 64) { range in
                    let blocks = (range.lowerBound / 16)..<((range.upperBound + 15) / 16)
                    if avx512 {
                        PackedSgemm.multiply(m: m, n: rows, k: depth, a: x, lda: depth, packed: wp,
                                             blocks: blocks, c: y, ldc: rows)
                    } else {
                        PackedSgemmAVX2.multiply(m: m, n: rows, k: depth, a: x, lda: depth, packed: wp,
                                                 blocks: blocks, c: y, ldc: rows)
                    }
                }
            case .openBLAS where m <= SkinnyGemm.maxRows:
                Parallel.columns(rows, threads: threads) { range in
                    SkinnyGemm.multiply(m: m, n: rows, k: depth, x: x, w: wp, y: y, columns: range)
                }
            case .openBLAS:
                Kernels.gemmNT(m: m, n: rows, k: depth, a: x, lda: depth, b: wp, ldb: depth, beta: 0, c: y, ldc: rows)
            }
        }
    }

    /// Dynamic per-row int8 quantization of `x`, the int8 GEMM, then v·(1/a_scale)/w_scale + b
    /// (CTranslate2 `dequantize_gemm_output_row`).
    public func multiply(_ w: Int8Matrix, _ x: UnsafePointer<Float>, m: Int, bias: [Float]?,
                  into y: UnsafeMutablePointer<Float>, workspace: Workspace) {
        let outputs = w.rows
        let acc = workspace.int32Buffer(m * outputs)
        let ascale = workspace.scaleBuffer(m)
        let input = w.quantize(x, m: m, scales: ascale, workspace: workspace)
        int8Gemm(w, input, m: m, into: acc, threads: workspace.threads)
        w.scales.withUnsafeBufferPointer { ws in
            for r in 0..<m {
                let ra = 1 / ascale[r]
                let c = acc + r * outputs
                let out = y + r * outputs
                if let bias {
                    for j in 0..<outputs { out[j] = Float(c[j]) * ra / ws[j] + bias[j] }
                } else {
                    for j in 0..<outputs { out[j] = Float(c[j]) * ra / ws[j] }
                }
            }
        }
    }

    /// acc[r, j] = Σₚ x[r, p]·W[j, p] for r < m (int32), `input` from `w.quantize`: exact with
    /// `.vnni`, pair sums saturated at 16 bits with `.avx2` (see `Int8Matrix`).
    func int8Gemm(_ w: Int8Matrix, _ input: QuantizedInput, m: Int, into acc: UnsafeMutablePointer<Int32>, threads: Int) {
        let rows = w.rows, depth = w.depth, layout = w.layout
        w.values.withUnsafeBufferPointer { values in
            w.compensation.withUnsafeBufferPointer { comp in
                let wp = values.baseAddress!
                switch w.kernel {
                case .avx2:
                    // Split at multiples of 16 columns: whole 8-column blocks, 2 per tile.
                    Parallel.columns(rows, threads: threads, granularity: 16) { range in
                        AVX2Int8Gemm.multiply(m: m, n: rows, k: depth, a: input.unsigned, lda: input.stride, packed: wp,
                                              blocks: (range.lowerBound / layout.blockColumns)..<layout.blocks(range.upperBound),
                                              compensation: comp.baseAddress!, c: acc, ldc: rows)
                    }
                case .vnni:
                    // Split at multiples of 64 columns: whole 16-column blocks, 4 per tile.
                    Parallel.columns(rows, threads: threads, granularity: 64) { range in
                        VNNIGemm.multiply(m: m, n: rows, k: depth, a: input.unsigned, lda: input.stride,
                                          packed: wp, blocks: (range.lowerBound / layout.blockColumns)..<layout.blocks(range.upperBound),
                                          compensation: comp.baseAddress!, c: acc, ldc: rows)
                    }
                }
            }
        }
    }
}
