import Builtin

/// u8 × s8 → s32 matrix product for AVX2 CPUs without VNNI, with the arithmetic of the kernels
/// CTranslate2 runs there (oneDNN's and MKL's AVX2 u8s8 GEMMs): `vpmaddubsw` adds the products
/// of two neighbouring bytes into a 16-bit value *with saturation*, `vpmaddwd` by ones adds two of
/// those into 32 bits, `vpaddd` accumulates. So the sum of each aligned pair of k,
/// a[2p]·b[2p] + a[2p+1]·b[2p+1], is clamped to [−32768, 32767] before the rest is exact. With
/// activations as bytes x + 128 this clamp is reached in practice; reproducing it is what makes
/// Glossa's int8 outputs equal CTranslate2's on such CPUs (checked with oneDNN limited to AVX2).
///
/// Weights are packed in `layout` (`QuadLayout` with 8-column blocks: 32 bytes per quad, one
/// 256-bit register). Compiled for Haswell (AVX2), which NeuralEngine requires of every CPU.
public enum AVX2Int8Gemm {
    /// The packed weight layout this kernel reads.
    public static let layout = QuadLayout(blockColumns: 8)

    /// C[i, j] = Σ (saturated pairs of) a[i, p]·b[j, p] + compensation[j] for rows i < m and the
    /// 8-column blocks `blocks` (the last block stops at n). `a` is u8 [m, lda],
    /// lda ≥ `layout.paddedDepth(k)`; `packed` is `layout.pack`'s output.
    public static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<UInt8>, lda: Int,
                                packed: UnsafePointer<Int8>, blocks: Range<Int>,
                                compensation: UnsafePointer<Int32>,
                                c: UnsafeMutablePointer<Int32>, ldc: Int) {
        let q = layout.quads(k)
        let panel = layout.panel(k)
        forEachTile(m: m, blocks: blocks, rowsPerTile: 4, blocksPerTile: 2) { i, rows, jb, nb in
            let tile = Tile(quads: q, a: a + i * lda, lda: lda, b: packed + jb * panel, panel: panel,
                            c: c + i * ldc + jb * 8, ldc: ldc, compensation: compensation + jb * 8,
                            validColumns: n - jb * 8)
            if rows == 4 && nb == 2 {
                tile.run(4, 2)
            } else if rows == 1 && nb == 2 {
                tile.run(1, 2)
            } else {
                tile.runAny(rows, nb)
            }
        }
    }
}

/// Up to 4 rows × 2 blocks (16 columns): 8 accumulators, within AVX2's 16 registers.
private struct Tile {
    let quads: Int
    let a: UnsafePointer<UInt8>
    let lda: Int
    let b: UnsafePointer<Int8>
    let panel: Int
    let c: UnsafeMutablePointer<Int32>
    let ldc: Int
    let compensation: UnsafePointer<Int32>
    let validColumns: Int

    @inline(never)
    func runAny(_ rows: Int, _ nb: Int) { run(rows, nb) }

    /// `rows` and `nb` are constants at the fast call sites, so unused branches disappear.
    @inline(__always)
    func run(_ rows: Int, _ nb: Int) {
        let zero = SIMD8<Int32>()
        var c00 = zero, c01 = zero, c10 = zero, c11 = zero
        var c20 = zero, c21 = zero, c30 = zero, c31 = zero
        let l1 = lda, l2 = 2 &* lda, l3 = 3 &* lda
        var pb = UnsafeRawPointer(b)
        var pa = UnsafeRawPointer(a)
        let second = panel
        for _ in 0..<quads {
            let b0 = pb.loadUnaligned(as: SIMD32<Int8>.self)
            let b1 = nb > 1 ? pb.loadUnaligned(fromByteOffset: second, as: SIMD32<Int8>.self) : SIMD32<Int8>()
            let a0 = quad(pa)
            c00 = dot(c00, a0, b0)
            if nb > 1 { c01 = dot(c01, a0, b1) }
            if rows > 1 {
                let a1 = quad(pa + l1)
                c10 = dot(c10, a1, b0)
                if nb > 1 { c11 = dot(c11, a1, b1) }
            }
            if rows > 2 {
                let a2 = quad(pa + l2)
                c20 = dot(c20, a2, b0)
                if nb > 1 { c21 = dot(c21, a2, b1) }
            }
            if rows > 3 {
                let a3 = quad(pa + l3)
                c30 = dot(c30, a3, b0)
                if nb > 1 { c31 = dot(c31, a3, b1) }
            }
            pb += 32
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
            let sum = v &+ UnsafeRawPointer(compensation + first).loadUnaligned(as: SIMD8<Int32>.self)
            UnsafeMutableRawPointer(out).storeBytes(of: sum, as: SIMD8<Int32>.self)
        } else {
            for j in 0..<max(0, validColumns - first) { out[j] = v[j] &+ compensation[first + j] }
        }
    }
}

/// One row's 4 activation bytes, broadcast to all 8 lanes.
@inline(__always)
private func quad(_ p: UnsafeRawPointer) -> SIMD32<UInt8> {
    unsafeBitCast(SIMD8<Int32>(repeating: p.loadUnaligned(as: Int32.self)), to: SIMD32<UInt8>.self)
}

/// acc + sat16(a₀b₀ + a₁b₁) + sat16(a₂b₂ + a₃b₃) per 32-bit lane
/// (`vpmaddubsw`, `vpmaddwd` by ones, `vpaddd`).
@inline(__always)
private func dot(_ acc: SIMD8<Int32>, _ a: SIMD32<UInt8>, _ b: SIMD32<Int8>) -> SIMD8<Int32> {
    let pairs: Builtin.Vec16xInt16 = Builtin.int_x86_avx2_pmadd_ub_sw(a._storage._value, b._storage._value)
    var sum = SIMD8<Int32>()
    sum._storage._value = Builtin.int_x86_avx2_pmadd_wd(pairs, SIMD16<Int16>(repeating: 1)._storage._value)
    return acc &+ sum
}
