import Builtin
import NeuralKernelsAVX2

/// float32 C = A·Bᵀ with AVX-512 FMA over a weight B [n, k] packed once at load by
/// `PackedSgemmAVX2.pack` (NeuralKernelsAVX2: packing must run on every CPU).
///
/// Why not OpenBLAS here: its sgemm copies ("packs") the weight operand on every call, which
/// profiled at 12 % of a batch-32 beam-4 decode; packing once at load removes that copy.
/// Layout: blocks of 16 columns; inside a block, for each p < k, the 16 columns' B[j, p] are
/// contiguous (one 512-bit register). Each C value is one fused multiply-add chain over p in
/// order 0..<k, starting from 0. Call only when `glossa_cpu_has_avx512_vnni()` is 1
/// (NeuralEngine's `CPUBackend` picks it only then).
/// Eight rows or more go to `PackedSgemmTall` (larger tiles, same bits).
public enum PackedSgemm {
    /// C[i, j] = Σₚ a[i, p]·b[j, p] for rows i < m and the 16-column blocks `blocks`
    /// (the last block stops at n). `a` is [m, lda], C is [m, ldc].
    public static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
                                packed: UnsafePointer<Float>, blocks: Range<Int>,
                                c: UnsafeMutablePointer<Float>, ldc: Int) {
        if m >= 8 {
            PackedSgemmTall.multiply(m: m, n: n, k: k, a: a, lda: lda, packed: packed, blocks: blocks, c: c, ldc: ldc)
            return
        }
        let panel = k * 16
        forEachTile(m: m, blocks: blocks, rowsPerTile: 4, blocksPerTile: 4) { i, rows, jb, nb in
            let tile = FloatTile(depth: k, a: a + i * lda, lda: lda, b: packed + jb * panel, panel: panel,
                                 c: c + i * ldc + jb * 16, ldc: ldc, validColumns: n - jb * 16)
            if rows == 4 && nb == 4 {
                tile.run(4, 4)
            } else if rows == 1 && nb == 4 {
                tile.run(1, 4)
            } else if rows == 2 && nb == 4 {
                tile.run(2, 4)
            } else {
                tile.runAny(rows, nb)
            }
        }
    }
}

/// Up to 4 rows × 4 column blocks of float accumulators.
private struct FloatTile {
    let depth: Int
    let a: UnsafePointer<Float>
    let lda: Int
    let b: UnsafePointer<Float>
    let panel: Int
    let c: UnsafeMutablePointer<Float>
    let ldc: Int
    let validColumns: Int

    @inline(never)
    func runAny(_ rows: Int, _ nb: Int) { run(rows, nb) }

    /// `rows` and `nb` are constants at the fast call sites (see `Tile.run` in VNNIGemm.swift).
    @inline(__always)
    func run(_ rows: Int, _ nb: Int) {
        let zero = SIMD16<Float>()
        var c00 = zero, c01 = zero, c02 = zero, c03 = zero
        var c10 = zero, c11 = zero, c12 = zero, c13 = zero
        var c20 = zero, c21 = zero, c22 = zero, c23 = zero
        var c30 = zero, c31 = zero, c32 = zero, c33 = zero
        let p1 = panel &* 4, p2 = 2 &* panel &* 4, p3 = 3 &* panel &* 4
        let l1 = lda, l2 = 2 &* lda, l3 = 3 &* lda
        var pb = UnsafeRawPointer(b)
        var pa = a
        for _ in 0..<depth {
            let b0 = pb.loadUnaligned(as: SIMD16<Float>.self)
            let b1 = nb > 1 ? pb.loadUnaligned(fromByteOffset: p1, as: SIMD16<Float>.self) : zero
            let b2 = nb > 2 ? pb.loadUnaligned(fromByteOffset: p2, as: SIMD16<Float>.self) : zero
            let b3 = nb > 3 ? pb.loadUnaligned(fromByteOffset: p3, as: SIMD16<Float>.self) : zero
            let a0 = SIMD16<Float>(repeating: pa[0])
            c00 = fma(a0, b0, c00)
            if nb > 1 { c01 = fma(a0, b1, c01) }
            if nb > 2 { c02 = fma(a0, b2, c02) }
            if nb > 3 { c03 = fma(a0, b3, c03) }
            if rows > 1 {
                let a1 = SIMD16<Float>(repeating: pa[l1])
                c10 = fma(a1, b0, c10)
                if nb > 1 { c11 = fma(a1, b1, c11) }
                if nb > 2 { c12 = fma(a1, b2, c12) }
                if nb > 3 { c13 = fma(a1, b3, c13) }
            }
            if rows > 2 {
                let a2 = SIMD16<Float>(repeating: pa[l2])
                c20 = fma(a2, b0, c20)
                if nb > 1 { c21 = fma(a2, b1, c21) }
                if nb > 2 { c22 = fma(a2, b2, c22) }
                if nb > 3 { c23 = fma(a2, b3, c23) }
            }
            if rows > 3 {
                let a3 = SIMD16<Float>(repeating: pa[l3])
                c30 = fma(a3, b0, c30)
                if nb > 1 { c31 = fma(a3, b1, c31) }
                if nb > 2 { c32 = fma(a3, b2, c32) }
                if nb > 3 { c33 = fma(a3, b3, c33) }
            }
            pb += 64
            pa += 1
        }
        store(row: 0, c00, c01, c02, c03, nb)
        if rows > 1 { store(row: 1, c10, c11, c12, c13, nb) }
        if rows > 2 { store(row: 2, c20, c21, c22, c23, nb) }
        if rows > 3 { store(row: 3, c30, c31, c32, c33, nb) }
    }

    @inline(__always)
    private func store(row: Int, _ v0: SIMD16<Float>, _ v1: SIMD16<Float>, _ v2: SIMD16<Float>,
                       _ v3: SIMD16<Float>, _ nb: Int) {
        storeBlock(row: row, block: 0, v0)
        if nb > 1 { storeBlock(row: row, block: 1, v1) }
        if nb > 2 { storeBlock(row: row, block: 2, v2) }
        if nb > 3 { storeBlock(row: row, block: 3, v3) }
    }

    @inline(__always)
    private func storeBlock(row: Int, block: Int, _ v: SIMD16<Float>) {
        let first = block * 16
        let out = c + row * ldc + first
        if validColumns - first >= 16 {
            UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD16<Float>.self)
        } else {
            for j in 0..<max(0, validColumns - first) { out[j] = v[j] }
        }
    }
}

/// a·b + c per lane, rounded once (`vfmadd231ps`).
@inline(__always)
func fma(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> {
    var out = SIMD16<Float>()
    out._storage._value = Builtin.int_fma_Vec16xFPIEEE32(a._storage._value, b._storage._value, c._storage._value)
    return out
}

/// Asks for the cache line at `address` in L2 (`prefetcht1`); changes no value.
@inline(__always)
func prefetchToL2(_ address: UnsafeRawPointer) {
    Builtin.int_prefetch_RawPointer(address._rawValue, Int32(0)._value, Int32(2)._value, Int32(1)._value)
}
