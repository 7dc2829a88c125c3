import Builtin
import NeuralKernelsAVX2

/// u8 × s8 → s32 matrix product with AVX-512 VNNI (`vpdpbusd`), the instruction CTranslate2's
/// oneDNN path uses for int8 models on x86.
///
/// This module is compiled for a VNNI-capable CPU (see Package.swift) and must only be called
/// after `glossa_cpu_has_avx512_vnni()` returned 1: on other CPUs its instructions fault.
/// (NeuralEngine's `CPUBackend` picks it only then, from `CPUCapabilities`, in one place.)
/// Nothing here is `@inlinable`, so no VNNI code can be inlined into callers built for AVX2.
///
/// Weights are packed in `layout` (`QuadLayout` with 16-column blocks: 64 bytes per quad, one
/// 512-bit register), so one `vpdpbusd` adds 4 products to each of 16 column sums.
public enum VNNIGemm {
    /// The packed weight layout this kernel reads.
    public static let layout = QuadLayout(blockColumns: 16)

    /// C[i, j] = Σₚ a[i, p]·b[j, p] + compensation[j] for every row i < m and every column j in
    /// the column blocks `blocks` (16 columns each; the last block stops at n).
    /// `a` is u8 [m, lda] with lda ≥ `layout.paddedDepth(k)`; `packed` is `layout.pack`'s output.
    public static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<UInt8>, lda: Int,
                                packed: UnsafePointer<Int8>, blocks: Range<Int>,
                                compensation: UnsafePointer<Int32>,
                                c: UnsafeMutablePointer<Int32>, ldc: Int) {
        let q = layout.quads(k)
        let panel = layout.panel(k)
        // Four column blocks (64 columns) at a time: their packed panel (q·256 bytes, 32 KiB at
        // k = 512) stays in L1/L2 while every row group passes over it.
        forEachTile(m: m, blocks: blocks, rowsPerTile: 4, blocksPerTile: 4) { i, rows, jb, nb in
            let tile = Tile(quads: q, a: a + i * lda, lda: lda, b: packed + jb * panel, panel: panel,
                            c: c + i * ldc + jb * 16, ldc: ldc, compensation: compensation + jb * 16,
                            validColumns: n - jb * 16)
            if rows == 4 && nb == 4 {
                tile.run(4, 4)
            } else if rows == 1 && nb == 4 {
                tile.run(1, 4)
            } else {
                tile.runAny(rows, nb)
            }
        }
    }
}

/// One register tile: up to 4 rows × 4 column blocks (16 int32 accumulators).
private struct Tile {
    let quads: Int
    let a: UnsafePointer<UInt8>
    let lda: Int
    let b: UnsafePointer<Int8>
    let panel: Int
    let c: UnsafeMutablePointer<Int32>
    let ldc: Int
    let compensation: UnsafePointer<Int32>
    /// Columns from this tile's first column to the end of the matrix.
    let validColumns: Int

    @inline(never)
    func runAny(_ rows: Int, _ nb: Int) { run(rows, nb) }

    /// `rows` and `nb` are constants at the fast call sites, so after inlining the unused
    /// accumulators and branches disappear.
    @inline(__always)
    func run(_ rows: Int, _ nb: Int) {
        let zero = SIMD16<Int32>()
        var c00 = zero, c01 = zero, c02 = zero, c03 = zero
        var c10 = zero, c11 = zero, c12 = zero, c13 = zero
        var c20 = zero, c21 = zero, c22 = zero, c23 = zero
        var c30 = zero, c31 = zero, c32 = zero, c33 = zero
        // Offsets are computed once; the loop only advances two pointers (no overflow checks).
        let p1 = panel, p2 = 2 &* panel, p3 = 3 &* panel
        let l1 = lda, l2 = 2 &* lda, l3 = 3 &* lda
        var pb = UnsafeRawPointer(b)
        var pa = UnsafeRawPointer(a)
        for _ in 0..<quads {
            let b0 = pb.loadUnaligned(as: SIMD16<Int32>.self)
            let b1 = nb > 1 ? pb.loadUnaligned(fromByteOffset: p1, as: SIMD16<Int32>.self) : zero
            let b2 = nb > 2 ? pb.loadUnaligned(fromByteOffset: p2, as: SIMD16<Int32>.self) : zero
            let b3 = nb > 3 ? pb.loadUnaligned(fromByteOffset: p3, as: SIMD16<Int32>.self) : zero
            let a0 = SIMD16<Int32>(repeating: pa.loadUnaligned(as: Int32.self))
            c00 = dot(c00, a0, b0)
            if nb > 1 { c01 = dot(c01, a0, b1) }
            if nb > 2 { c02 = dot(c02, a0, b2) }
            if nb > 3 { c03 = dot(c03, a0, b3) }
            if rows > 1 {
                let a1 = SIMD16<Int32>(repeating: pa.loadUnaligned(fromByteOffset: l1, as: Int32.self))
                c10 = dot(c10, a1, b0)
                if nb > 1 { c11 = dot(c11, a1, b1) }
                if nb > 2 { c12 = dot(c12, a1, b2) }
                if nb > 3 { c13 = dot(c13, a1, b3) }
            }
            if rows > 2 {
                let a2 = SIMD16<Int32>(repeating: pa.loadUnaligned(fromByteOffset: l2, as: Int32.self))
                c20 = dot(c20, a2, b0)
                if nb > 1 { c21 = dot(c21, a2, b1) }
                if nb > 2 { c22 = dot(c22, a2, b2) }
                if nb > 3 { c23 = dot(c23, a2, b3) }
            }
            if rows > 3 {
                let a3 = SIMD16<Int32>(repeating: pa.loadUnaligned(fromByteOffset: l3, as: Int32.self))
                c30 = dot(c30, a3, b0)
                if nb > 1 { c31 = dot(c31, a3, b1) }
                if nb > 2 { c32 = dot(c32, a3, b2) }
                if nb > 3 { c33 = dot(c33, a3, b3) }
            }
            pb += 64
            pa += 4
        }
        store(row: 0, c00, c01, c02, c03, nb)
        if rows > 1 { store(row: 1, c10, c11, c12, c13, nb) }
        if rows > 2 { store(row: 2, c20, c21, c22, c23, nb) }
        if rows > 3 { store(row: 3, c30, c31, c32, c33, nb) }
    }

    @inline(__always)
    private func store(row: Int, _ v0: SIMD16<Int32>, _ v1: SIMD16<Int32>, _ v2: SIMD16<Int32>,
                       _ v3: SIMD16<Int32>, _ nb: Int) {
        storeBlock(row: row, block: 0, v0)
        if nb > 1 { storeBlock(row: row, block: 1, v1) }
        if nb > 2 { storeBlock(row: row, block: 2, v2) }
        if nb > 3 { storeBlock(row: row, block: 3, v3) }
    }

    @inline(__always)
    private func storeBlock(row: Int, block: Int, _ v: SIMD16<Int32>) {
        let first = block * 16
        let out = c + row * ldc + first
        if validColumns - first >= 16 {
            let sum = v &+ UnsafeRawPointer(compensation + first).loadUnaligned(as: SIMD16<Int32>.self)
            UnsafeMutableRawPointer(out).storeBytes(of: sum, as: SIMD16<Int32>.self)
        } else {
            // The matrix's last, partial block: only its real columns exist in C.
            for j in 0..<max(0, validColumns - first) { out[j] = v[j] &+ compensation[first + j] }
        }
    }
}

/// acc + Σ₄ u8(a)·s8(b) per 32-bit lane (`vpdpbusd`, no saturation).
@inline(__always)
private func dot(_ acc: SIMD16<Int32>, _ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
    var out = SIMD16<Int32>()
    out._storage._value = Builtin.int_x86_avx512_vpdpbusd_512(acc._storage._value, a._storage._value, b._storage._value)
    return out
}
