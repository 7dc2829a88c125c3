/// int8 × int8 → int32 matrix product for quantized linear layers.
///
/// OpenBLAS has no integer GEMM (Debian's 0.3.21 cblas.h declares none), so this is Swift:
/// C[m,n] = A[m,k]·B[n,k]ᵀ, both operands int8 row-major, exact int32 accumulation
/// (|a·b| ≤ 16384, so k up to 131072 cannot overflow). Plain loops over Int32 products that
/// LLVM vectorises (AVX2 here); weight rows are taken in cache-sized blocks that serve every
/// activation row, and each inner loop computes a 2×4 tile so loads are shared. (Generic SIMD
/// conversions are avoided: unspecialised they go through runtime metadata, ~100× slower.)
enum Int8Gemm {
    /// Computes columns `columns` (all of them by default) of C.
    static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<Int8>, b: UnsafePointer<Int8>,
                         c: UnsafeMutablePointer<Int32>, columns: Range<Int>? = nil) {
        let range = columns ?? 0..<n
        // A block of weight rows of about 32 KiB stays in L1/L2 while all activation rows use it.
        let blockRows = max(4, (32768 / max(k, 1)) & ~3)
        var jb = range.lowerBound
        while jb < range.upperBound {
            let jEnd = min(range.upperBound, jb + blockRows)
            var i = 0
            while i + 2 <= m {
                tile2(k: k, a0: a + i * k, a1: a + (i + 1) * k, b: b, c0: c + i * n, c1: c + (i + 1) * n, columns: jb..<jEnd)
                i += 2
            }
            if i < m { tile1(k: k, a0: a + i * k, b: b, c0: c + i * n, columns: jb..<jEnd) }
            jb = jEnd
        }
    }

    @inline(__always)
    private static func tile2(k: Int, a0: UnsafePointer<Int8>, a1: UnsafePointer<Int8>, b: UnsafePointer<Int8>,
                              c0: UnsafeMutablePointer<Int32>, c1: UnsafeMutablePointer<Int32>, columns: Range<Int>) {
        var j = columns.lowerBound
        while j + 4 <= columns.upperBound {
            let b0 = b + j * k, b1 = b0 + k, b2 = b1 + k, b3 = b2 + k
            var s00: Int32 = 0, s01: Int32 = 0, s02: Int32 = 0, s03: Int32 = 0
            var s10: Int32 = 0, s11: Int32 = 0, s12: Int32 = 0, s13: Int32 = 0
            for p in 0..<k {
                let x0 = Int32(a0[p]), x1 = Int32(a1[p])
                let w0 = Int32(b0[p]), w1 = Int32(b1[p]), w2 = Int32(b2[p]), w3 = Int32(b3[p])
                s00 &+= x0 &* w0; s01 &+= x0 &* w1; s02 &+= x0 &* w2; s03 &+= x0 &* w3
                s10 &+= x1 &* w0; s11 &+= x1 &* w1; s12 &+= x1 &* w2; s13 &+= x1 &* w3
            }
            c0[j] = s00; c0[j + 1] = s01; c0[j + 2] = s02; c0[j + 3] = s03
            c1[j] = s10; c1[j + 1] = s11; c1[j + 2] = s12; c1[j + 3] = s13
            j += 4
        }
        while j < columns.upperBound {
            let bj = b + j * k
            var s0: Int32 = 0, s1: Int32 = 0
            for p in 0..<k {
                let w = Int32(bj[p])
                s0 &+= Int32(a0[p]) &* w
                s1 &+= Int32(a1[p]) &* w
            }
            c0[j] = s0; c1[j] = s1
            j += 1
        }
    }

    @inline(__always)
    private static func tile1(k: Int, a0: UnsafePointer<Int8>, b: UnsafePointer<Int8>,
                              c0: UnsafeMutablePointer<Int32>, columns: Range<Int>) {
        var j = columns.lowerBound
        while j + 4 <= columns.upperBound {
            let b0 = b + j * k, b1 = b0 + k, b2 = b1 + k, b3 = b2 + k
            var t0: Int32 = 0, t1: Int32 = 0, t2: Int32 = 0, t3: Int32 = 0
            for p in 0..<k {
                let x = Int32(a0[p])
                t0 &+= x &* Int32(b0[p]); t1 &+= x &* Int32(b1[p])
                t2 &+= x &* Int32(b2[p]); t3 &+= x &* Int32(b3[p])
            }
            c0[j] = t0; c0[j + 1] = t1; c0[j + 2] = t2; c0[j + 3] = t3
            j += 4
        }
        while j < columns.upperBound {
            let bj = b + j * k
            var t: Int32 = 0
            for p in 0..<k { t &+= Int32(a0[p]) &* Int32(bj[p]) }
            c0[j] = t
            j += 1
        }
    }
}
