import Foundation
import NeuralKernelsAVX2
import NeuralKernelsAVX512

/// A float32 weight matrix W [rows, depth] for y = x·Wᵀ, packed once at load into 16-column
/// panels and multiplied by `PackedSgemm` (AVX-512, on CPUs that pass `Int8Kernel.current`'s
/// check) or `PackedSgemmAVX2`. Both compute every output as one FMA chain over the depth, so
/// they give the same bits. `pack: false` keeps it row-major for OpenBLAS (`SkinnyGemm` for
/// few rows): the path of `GLOSSA_FLOAT_GEMM=openblas`.
struct FloatMatrix: Sendable {
    let rows: Int
    let depth: Int
    let packed: Bool
    /// Which packed kernel multiplies (`.vnni`: the AVX-512 one).
    let kernel: Int8Kernel
    let values: [Float]

    /// Takes the row-major `values` (packed in place, so a model is never held twice).
    init(rowMajor values: consuming [Float], rows: Int, depth: Int, pack: Bool = FloatMatrix.packsWeights,
         kernel: Int8Kernel = .current) {
        self.rows = rows
        self.depth = depth
        self.packed = pack
        self.kernel = kernel
        var v = consume values
        if pack {
            InPlacePacking.pack(&v, rows: rows, depth: depth, blockRows: 16, zero: 0) { block, out in
                PackedSgemmAVX2.pack(block, n: 16, k: depth, into: out)
            }
        }
        self.values = v
    }

    /// Whether weights are packed (the default) or left to OpenBLAS: GLOSSA_FLOAT_GEMM=openblas
    /// selects the latter, to compare or to test that path.
    static let packsWeights = ProcessInfo.processInfo.environment["GLOSSA_FLOAT_GEMM"] != "openblas"

    /// Row j of W into `out` (`depth` floats): an embedding lookup in a tied table.
    func row(_ j: Int, into out: UnsafeMutablePointer<Float>) {
        values.withUnsafeBufferPointer { v in
            if packed {
                let base = v.baseAddress! + (j / 16) * depth * 16 + j % 16
                for p in 0..<depth { out[p] = base[p * 16] }
            } else {
                out.update(from: v.baseAddress! + j * depth, count: depth)
            }
        }
    }

    /// y[m, rows] = x[m, depth]·Wᵀ.
    func multiply(_ x: UnsafePointer<Float>, m: Int, into y: UnsafeMutablePointer<Float>, threads: Int) {
        values.withUnsafeBufferPointer { w in
            let wp = w.baseAddress!
            if packed {
                let avx512 = kernel == .vnni
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
            } else if m <= SkinnyGemm.maxRows {
                Parallel.columns(rows, threads: threads) { range in
                    SkinnyGemm.multiply(m: m, n: rows, k: depth, x: x, w: wp, y: y, columns: range)
                }
            } else {
                Kernels.gemmNT(m: m, n: rows, k: depth, a: x, lda: depth, b: wp, ldb: depth, beta: 0, c: y, ldc: rows)
            }
        }
    }
}
