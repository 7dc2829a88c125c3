import Builtin

/// s8 × s8 → s32 matrix product for AVX2 CPUs (no VNNI): `vpmaddwd` on sign-extended pairs.
///
/// Exact: each 32-bit lane adds two products of 16-bit values (|x·w| ≤ 16384), so nothing
/// saturates (unlike `vpmaddubsw`, which saturates at 16 bits and would change results).
/// Layout: the weight B [n, k] is stored in blocks of 8 columns; inside a block, for each pair of
/// consecutive k, the 8 columns' 2 bytes lie next to each other (16 bytes, sign-extended to one
/// 256-bit register on load). A is given as 16-bit values, so one 32-bit broadcast holds a pair.
/// Padding columns and k beyond the matrix are zero. Compiled for Haswell (AVX2), which
/// NeuralEngine requires of every CPU it runs on.
public enum PairGemm {
    /// Number of 8-column blocks for `n` columns.
    public static func blocks(_ n: Int) -> Int { (n + 7) / 8 }

    /// Number of k pairs.
    public static func pairs(_ k: Int) -> Int { (k + 1) / 2 }

    /// Bytes of the packed form of an [n, k] matrix.
    public static func packedCount(n: Int, k: Int) -> Int { blocks(n) * pairs(k) * 16 }

    /// The row stride (in Int16) A must have: k rounded up to a pair; pad values must be 0 or any
    /// value (B's padding is 0).
    public static func paddedDepth(_ k: Int) -> Int { pairs(k) * 2 }

    /// Packs row-major B [n, k] into `out` (`packedCount` bytes).
    public static func pack(_ b: UnsafePointer<Int8>, n: Int, k: Int, into out: UnsafeMutablePointer<Int8>) {
        let q = pairs(k)
        out.initialize(repeating: 0, count: packedCount(n: n, k: k))
        for j in 0..<n {
            let block = out + (j / 8) * q * 16 + (j % 8) * 2
            let row = b + j * k
            for p in 0..<k { block[(p / 2) * 16 + p % 2] = row[p] }
        }
    }

    /// C[i, j] = Σₚ a[i, p]·b[j, p] for rows i < m and the 8-column blocks `blocks` (the last block
    /// stops at n). `a` is Int16 [m, lda], lda ≥ `paddedDepth(k)`; `packed` is `pack`'s output.
    public static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<Int16>, lda: Int,
                                packed: UnsafePointer<Int8>, blocks: Range<Int>,
                                c: UnsafeMutablePointer<Int32>, ldc: Int) {
        let q = pairs(k)
        let panel = q * 16
        var jb = blocks.lowerBound
        while jb < blocks.upperBound {
            let nb = min(2, blocks.upperBound - jb)
            var i = 0
            while i < m {
                let rows = min(4, m - i)
                let tile = PairTile(pairs: q, a: a + i * lda, lda: lda, b: packed + jb * panel, panel: panel,
                                    c: c + i * ldc + jb * 8, ldc: ldc, validColumns: n - jb * 8)
                if rows == 4 && nb == 2 {
                    tile.run(4, 2)
                } else if rows == 1 && nb == 2 {
                    tile.run(1, 2)
                } else {
                    tile.runAny(rows, nb)
                }
                i += rows
            }
            jb += nb
        }
    }
}

/// Up to 4 rows × 2 blocks (16 columns): 8 accumulators, within AVX2's 16 registers.
private struct PairTile {
    let pairs: Int
    let a: UnsafePointer<Int16>
    let lda: Int
    let b: UnsafePointer<Int8>
    let panel: Int
    let c: UnsafeMutablePointer<Int32>
    let ldc: Int
    let validColumns: Int

    @inline(never)
    func runAny(_ rows: Int, _ nb: Int) { run(rows, nb) }

    /// `rows` and `nb` are constants at the fast call sites, so unused branches disappear.
    @inline(__always)
    func run(_ rows: Int, _ nb: Int) {
        let zero = SIMD8<Int32>()
        var c00 = zero, c01 = zero, c10 = zero, c11 = zero
        var c20 = zero, c21 = zero, c30 = zero, c31 = zero
        let l1 = lda &* 2, l2 = 2 &* lda &* 2, l3 = 3 &* lda &* 2
        var pb = UnsafeRawPointer(b)
        var pa = UnsafeRawPointer(a)
        let second = panel
        for _ in 0..<pairs {
            let b0 = widen(pb)
            let b1 = nb > 1 ? widen(pb + second) : Builtin.zeroInitializer()
            let a0 = pair(pa)
            c00 = madd(c00, a0, b0)
            if nb > 1 { c01 = madd(c01, a0, b1) }
            if rows > 1 {
                let a1 = pair(pa + l1)
                c10 = madd(c10, a1, b0)
                if nb > 1 { c11 = madd(c11, a1, b1) }
            }
            if rows > 2 {
                let a2 = pair(pa + l2)
                c20 = madd(c20, a2, b0)
                if nb > 1 { c21 = madd(c21, a2, b1) }
            }
            if rows > 3 {
                let a3 = pair(pa + l3)
                c30 = madd(c30, a3, b0)
                if nb > 1 { c31 = madd(c31, a3, b1) }
            }
            pb += 16
            pa += 4
        }
        store(row: 0, c00, c01, nb)
        if rows > 1 { store(row: 1, c10, c11, nb) }
        if rows > 2 { store(row: 2, c20, c21, nb) }
        if rows > 3 { store(row: 3, c30, c31, nb) }
    }

    @inline(__always)
    private func store(row: Int, _ v0: SIMD8<Int32>, _ v1: SIMD8<Int32>, _ nb: Int) {
        storeBlock(row: row, block: 0, v0)
        if nb > 1 { storeBlock(row: row, block: 1, v1) }
    }

    @inline(__always)
    private func storeBlock(row: Int, block: Int, _ v: SIMD8<Int32>) {
        let first = block * 8
        let out = c + row * ldc + first
        if validColumns - first >= 8 {
            UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD8<Int32>.self)
        } else {
            for j in 0..<max(0, validColumns - first) { out[j] = v[j] }
        }
    }
}

/// 16 bytes → 16 sign-extended Int16 (`vpmovsxbw`).
@inline(__always)
private func widen(_ p: UnsafeRawPointer) -> Builtin.Vec16xInt16 {
    Builtin.sext_Vec16xInt8_Vec16xInt16(p.loadUnaligned(as: SIMD16<Int8>.self)._storage._value)
}

/// One pair of Int16 (32 bits) broadcast to all 8 lanes.
@inline(__always)
private func pair(_ p: UnsafeRawPointer) -> Builtin.Vec16xInt16 {
    unsafeBitCast(SIMD8<Int32>(repeating: p.loadUnaligned(as: Int32.self)), to: SIMD16<Int16>.self)._storage._value
}

/// acc + (a₀b₀ + a₁b₁) per 32-bit lane (`vpmaddwd`, then `vpaddd`).
@inline(__always)
private func madd(_ acc: SIMD8<Int32>, _ a: Builtin.Vec16xInt16, _ b: Builtin.Vec16xInt16) -> SIMD8<Int32> {
    var product = SIMD8<Int32>()
    product._storage._value = Builtin.int_x86_avx2_pmadd_wd(a, b)
    return acc &+ product
}
