import NeuralKernelsAVX512

/// A float32 weight matrix W [rows, depth] for y = x·Wᵀ, stored for the GEMM that reads it.
///
/// On AVX-512 CPUs (`Int8Kernel.current == .vnni`, the same check) W is packed once at load for
/// `PackedSgemm`, which serves every row count. Elsewhere it stays row-major: few rows go to
/// `SkinnyGemm` (reads W once), more to OpenBLAS's sgemm. Only one copy is kept.
struct FloatMatrix: Sendable {
    let rows: Int
    let depth: Int
    let packed: Bool
    let values: [Float]

    /// Takes the row-major `values` (packed in place, so a model is never held twice).
    init(rowMajor values: consuming [Float], rows: Int, depth: Int, pack: Bool = Int8Kernel.current == .vnni) {
        self.rows = rows
        self.depth = depth
        self.packed = pack
        var v = consume values
        if pack {
            InPlacePacking.pack(&v, rows: rows, depth: depth, blockRows: 16, zero: 0) { block, out in
                PackedSgemm.pack(block, n: 16, k: depth, into: out)
            }
        }
        self.values = v
    }

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
                Parallel.columns(rows, threads: threads, granularity: 64) { range in
                    PackedSgemm.multiply(m: m, n: rows, k: depth, a: x, lda: depth, packed: wp,
                                         blocks: (range.lowerBound / 16)..<((range.upperBound + 15) / 16),
                                         c: y, ldc: rows)
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
