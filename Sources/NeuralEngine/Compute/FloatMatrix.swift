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

    init(rowMajor values: [Float], rows: Int, depth: Int, pack: Bool = Int8Kernel.current == .vnni) {
        self.rows = rows
        self.depth = depth
        self.packed = pack
        if pack {
            self.values = values.withUnsafeBufferPointer { src in
                [Float](unsafeUninitializedCapacity: PackedSgemm.packedCount(n: rows, k: depth)) { out, count in
                    PackedSgemm.pack(src.baseAddress!, n: rows, k: depth, into: out.baseAddress!)
                    count = out.count
                }
            }
        } else {
            self.values = values
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
