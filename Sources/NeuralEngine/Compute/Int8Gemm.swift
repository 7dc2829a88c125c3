/// int8 × int8 → int32 matrix product for quantized linear layers.
///
/// OpenBLAS has no integer GEMM (Debian's 0.3.21 cblas.h declares none), so this is Swift:
/// C[m,n] = A[m,k]·B[n,k]ᵀ, both operands int8 row-major, exact int32 accumulation
/// (|a·b| ≤ 16384, so k up to 131072 cannot overflow). Plain loops over Int32 products that
/// LLVM vectorises; four weight rows share each pass over an activation row. (Generic SIMD
/// conversions are avoided: unspecialised they go through runtime metadata, ~100× slower.)
enum Int8Gemm {
    /// Computes columns `columns` (all of them by default) of C.
    static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<Int8>, b: UnsafePointer<Int8>,
                         c: UnsafeMutablePointer<Int32>, columns: Range<Int>? = nil) {
        let range = columns ?? 0..<n
        for i in 0..<m {
            let arow = a + i * k
            let crow = c + i * n
            var j = range.lowerBound
            while j + 4 <= range.upperBound {
                let b0 = b + j * k, b1 = b0 + k, b2 = b1 + k, b3 = b2 + k
                var t0: Int32 = 0, t1: Int32 = 0, t2: Int32 = 0, t3: Int32 = 0
                for p in 0..<k {
                    let x = Int32(arow[p])
                    t0 &+= x &* Int32(b0[p])
                    t1 &+= x &* Int32(b1[p])
                    t2 &+= x &* Int32(b2[p])
                    t3 &+= x &* Int32(b3[p])
                }
                crow[j] = t0; crow[j + 1] = t1; crow[j + 2] = t2; crow[j + 3] = t3
                j += 4
            }
            while j < range.upperBound {
                let brow = b + j * k
                var t: Int32 = 0
                for p in 0..<k { t &+= Int32(arow[p]) &* Int32(brow[p]) }
                crow[j] = t
                j += 1
            }
        }
    }
}
