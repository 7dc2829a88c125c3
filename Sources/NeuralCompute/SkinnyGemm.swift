/// y[m, n] = x[m, k]·W[n, k]ᵀ for few rows (decoder steps).
///
/// OpenBLAS's sgemm repacks the whole weight matrix on every call (profiled: `sgemm_incopy`
/// took 58 % of a greedy decode), which dominates when m is small; this kernel streams each
/// weight row once and dots it with up to four activation rows, so the weights are read once.
enum SkinnyGemm {
    /// Rows at or below this use the skinny kernel.
    static let maxRows = 8

    /// Computes columns `columns` (all of them by default) of y.
    static func multiply(m: Int, n: Int, k: Int, x: UnsafePointer<Float>, w: UnsafePointer<Float>,
                         y: UnsafeMutablePointer<Float>, columns: Range<Int>? = nil) {
        let range = columns ?? 0..<n
        let k8 = k & ~7
        let raw = UnsafeRawPointer(w)
        let xr = UnsafeRawPointer(x)
        // Column blocks of `blockRows` weight rows (≤ 64 KiB) stay in cache across all row groups,
        // so each weight is read from memory once per call.
        let blockRows = max(4, 16384 / max(k, 1))
        var jb = range.lowerBound
        while jb < range.upperBound {
        let block = jb..<min(range.upperBound, jb + blockRows)
        jb = block.upperBound
        var i = 0
        while i < m {
            let rows = min(4, m - i)
            for j in block {
                let wrow = raw + j * k * 4
                var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
                var p = 0
                switch rows {
                case 4:
                    let x0 = xr + i * k * 4, x1 = x0 + k * 4, x2 = x1 + k * 4, x3 = x2 + k * 4
                    while p < k8 {
                        let wv = wrow.loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self)
                        a0 += wv * x0.loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self)
                        a1 += wv * x1.loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self)
                        a2 += wv * x2.loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self)
                        a3 += wv * x3.loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self)
                        p += 8
                    }
                default:
                    let x0 = xr + i * k * 4
                    while p < k8 {
                        let wv = wrow.loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self)
                        a0 += wv * x0.loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self)
                        if rows > 1 { a1 += wv * (x0 + k * 4).loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self) }
                        if rows > 2 { a2 += wv * (x0 + 2 * k * 4).loadUnaligned(fromByteOffset: p * 4, as: SIMD8<Float>.self) }
                        p += 8
                    }
                }
                var s0 = a0.sum(), s1 = a1.sum(), s2 = a2.sum(), s3 = a3.sum()
                while p < k {
                    let wv = w[j * k + p]
                    s0 += wv * x[i * k + p]
                    if rows > 1 { s1 += wv * x[(i + 1) * k + p] }
                    if rows > 2 { s2 += wv * x[(i + 2) * k + p] }
                    if rows > 3 { s3 += wv * x[(i + 3) * k + p] }
                    p += 1
                }
                y[i * n + j] = s0
                if rows > 1 { y[(i + 1) * n + j] = s1 }
                if rows > 2 { y[(i + 2) * n + j] = s2 }
                if rows > 3 { y[(i + 3) * n + j] = s3 }
            }
            i += rows
        }
        }
    }
}

