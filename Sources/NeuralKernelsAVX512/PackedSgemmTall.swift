import Builtin

/// The many-row path of `PackedSgemm` (m ≥ 8: batched decoder steps and the encoder).
///
/// Why a second kernel: with 4 rows × 64 columns per register tile, every 16 multiply-adds wait
/// for 4 weight vectors from L2 (profiled: the weight loads took 45 % of a batch-32 beam-4
/// decode, the kernel 79 %). Here a tile is 8 rows × 48 columns (24 accumulators, 3 weight
/// loads per 24 multiply-adds), and the depth is cut into slices of `depthSlice` so the tile's
/// three panel slices (3 × 128 × 64 B = 24 KiB) stay in L1 while every row tile passes over
/// them. Exactness: each output is still one FMA chain over p in order 0..<k from 0; a slice
/// ends by storing the float32 accumulator and the next one continues from that stored value,
/// which is the same value, so the bits equal the 4×4 kernel's and `PackedSgemmAVX2`'s.
enum PackedSgemmTall {
    /// Depth positions per slice.
    static let depthSlice = 128

    static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
                         packed: UnsafePointer<Float>, blocks: Range<Int>,
                         c: UnsafeMutablePointer<Float>, ldc: Int) {
        let panel = k * 16
        var jb = blocks.lowerBound
        while jb < blocks.upperBound {
            let nb = min(3, blocks.upperBound - jb)
            var p0 = 0
            while p0 < k {
                let depth = min(depthSlice, k - p0)
                let next = NextSlice(jb: jb, p0: p0, depth: depth, k: k, blocks: blocks)
                var i = 0
                while i < m {
                    let rows = min(8, m - i)
                    let t = i / 8
                    let tile = TallTile(depth: depth, continues: p0 > 0, a: a + i * lda + p0, lda: lda,
                                        b: packed + jb * panel + p0 * 16, panel: panel,
                                        c: c + i * ldc + jb * 16, ldc: ldc, validColumns: n - jb * 16,
                                        prefetch: next.flatMap { t < $0.nb ? packed + ($0.jb + t) * panel + $0.p0 * 16 : nil },
                                        prefetchStep: (next?.depth ?? 0) >= depth ? 64 : 0)
                    switch (rows, nb) {
                    case (8, 3): tile.run(8, 3)
                    case (8, 2): tile.run(8, 2)
                    case (8, 1): tile.run(8, 1)
                    case (4, 3): tile.run(4, 3)
                    default: tile.runAny(rows, nb)
                    }
                    i += rows
                }
                p0 += depth
            }
            jb += nb
        }
    }
}

/// The depth slice that `PackedSgemmTall.multiply` reads after (jb, p0): the next slice of the
/// same column blocks, else the first slice of the next blocks; nil after the last.
private struct NextSlice {
    let jb: Int
    let p0: Int
    let nb: Int
    let depth: Int

    init?(jb: Int, p0: Int, depth: Int, k: Int, blocks: Range<Int>) {
        if p0 + depth < k {
            (self.jb, self.p0) = (jb, p0 + depth)
        } else if jb + 3 < blocks.upperBound {
            (self.jb, self.p0) = (jb + 3, 0)
        } else {
            return nil
        }
        self.nb = min(3, blocks.upperBound - self.jb)
        self.depth = min(PackedSgemmTall.depthSlice, k - self.p0)
    }
}

/// Up to 8 rows × 3 column blocks over one depth slice.
///
/// Why the prefetch: the first row tile of a slice reads its 24 KiB of weights at three cache
/// lines per 24 multiply-adds, faster than the hardware prefetchers bring them from L3 or memory
/// (the 32k-vocabulary output projection ran at 70 GFLOP/s against 110–120 for the decoder's
/// L2-sized matrices). So while a slice is multiplied, its row tiles bring the next slice's
/// panels into L2: row tile t < 3 takes panel t of it, one line per depth step (with fewer than
/// three row tiles, the rest is left to the hardware).
/// A prefetch changes no value.
private struct TallTile {
    let depth: Int
    /// Whether C already holds the sum over the earlier slices (else the chains start at 0).
    let continues: Bool
    let a: UnsafePointer<Float>
    let lda: Int
    let b: UnsafePointer<Float>
    let panel: Int
    let c: UnsafeMutablePointer<Float>
    let ldc: Int
    let validColumns: Int
    /// This tile's panel of the next slice (nil: none), and the bytes to step per depth position:
    /// 64 (one line), or 0 where the next slice is shorter than this one (its first line only).
    let prefetch: UnsafePointer<Float>?
    let prefetchStep: Int

    @inline(never)
    func runAny(_ rows: Int, _ nb: Int) { run(rows, nb) }

    /// `rows` and `nb` are constants at the fast call sites, so the unused branches disappear.
    @inline(__always)
    func run(_ rows: Int, _ nb: Int) {
        let zero = SIMD16<Float>()
        var c00 = zero, c01 = zero, c02 = zero
        var c10 = zero, c11 = zero, c12 = zero
        var c20 = zero, c21 = zero, c22 = zero
        var c30 = zero, c31 = zero, c32 = zero
        var c40 = zero, c41 = zero, c42 = zero
        var c50 = zero, c51 = zero, c52 = zero
        var c60 = zero, c61 = zero, c62 = zero
        var c70 = zero, c71 = zero, c72 = zero
        if continues {
            if rows > 0 { c00 = load(0, 0); if nb > 1 { c01 = load(0, 1) }; if nb > 2 { c02 = load(0, 2) } }
            if rows > 1 { c10 = load(1, 0); if nb > 1 { c11 = load(1, 1) }; if nb > 2 { c12 = load(1, 2) } }
            if rows > 2 { c20 = load(2, 0); if nb > 1 { c21 = load(2, 1) }; if nb > 2 { c22 = load(2, 2) } }
            if rows > 3 { c30 = load(3, 0); if nb > 1 { c31 = load(3, 1) }; if nb > 2 { c32 = load(3, 2) } }
            if rows > 4 { c40 = load(4, 0); if nb > 1 { c41 = load(4, 1) }; if nb > 2 { c42 = load(4, 2) } }
            if rows > 5 { c50 = load(5, 0); if nb > 1 { c51 = load(5, 1) }; if nb > 2 { c52 = load(5, 2) } }
            if rows > 6 { c60 = load(6, 0); if nb > 1 { c61 = load(6, 1) }; if nb > 2 { c62 = load(6, 2) } }
            if rows > 7 { c70 = load(7, 0); if nb > 1 { c71 = load(7, 1) }; if nb > 2 { c72 = load(7, 2) } }
        }
        let p1 = panel &* 4, p2 = 2 &* panel &* 4
        var pb = UnsafeRawPointer(b)
        var pa = a
        var pf = UnsafeRawPointer(prefetch ?? b)
        let pfStep = prefetchStep
        for _ in 0..<depth {
            prefetchToL2(pf)
            pf += pfStep
            let b0 = pb.loadUnaligned(as: SIMD16<Float>.self)
            let b1 = nb > 1 ? pb.loadUnaligned(fromByteOffset: p1, as: SIMD16<Float>.self) : zero
            let b2 = nb > 2 ? pb.loadUnaligned(fromByteOffset: p2, as: SIMD16<Float>.self) : zero
            if rows > 0 {
                let a0 = SIMD16<Float>(repeating: pa[0 &* lda])
                c00 = fma(a0, b0, c00)
                if nb > 1 { c01 = fma(a0, b1, c01) }
                if nb > 2 { c02 = fma(a0, b2, c02) }
            }
            if rows > 1 {
                let a1 = SIMD16<Float>(repeating: pa[1 &* lda])
                c10 = fma(a1, b0, c10)
                if nb > 1 { c11 = fma(a1, b1, c11) }
                if nb > 2 { c12 = fma(a1, b2, c12) }
            }
            if rows > 2 {
                let a2 = SIMD16<Float>(repeating: pa[2 &* lda])
                c20 = fma(a2, b0, c20)
                if nb > 1 { c21 = fma(a2, b1, c21) }
                if nb > 2 { c22 = fma(a2, b2, c22) }
            }
            if rows > 3 {
                let a3 = SIMD16<Float>(repeating: pa[3 &* lda])
                c30 = fma(a3, b0, c30)
                if nb > 1 { c31 = fma(a3, b1, c31) }
                if nb > 2 { c32 = fma(a3, b2, c32) }
            }
            if rows > 4 {
                let a4 = SIMD16<Float>(repeating: pa[4 &* lda])
                c40 = fma(a4, b0, c40)
                if nb > 1 { c41 = fma(a4, b1, c41) }
                if nb > 2 { c42 = fma(a4, b2, c42) }
            }
            if rows > 5 {
                let a5 = SIMD16<Float>(repeating: pa[5 &* lda])
                c50 = fma(a5, b0, c50)
                if nb > 1 { c51 = fma(a5, b1, c51) }
                if nb > 2 { c52 = fma(a5, b2, c52) }
            }
            if rows > 6 {
                let a6 = SIMD16<Float>(repeating: pa[6 &* lda])
                c60 = fma(a6, b0, c60)
                if nb > 1 { c61 = fma(a6, b1, c61) }
                if nb > 2 { c62 = fma(a6, b2, c62) }
            }
            if rows > 7 {
                let a7 = SIMD16<Float>(repeating: pa[7 &* lda])
                c70 = fma(a7, b0, c70)
                if nb > 1 { c71 = fma(a7, b1, c71) }
                if nb > 2 { c72 = fma(a7, b2, c72) }
            }
            pb += 64
            pa += 1
        }
        if rows > 0 { store(c00, 0, 0); if nb > 1 { store(c01, 0, 1) }; if nb > 2 { store(c02, 0, 2) } }
        if rows > 1 { store(c10, 1, 0); if nb > 1 { store(c11, 1, 1) }; if nb > 2 { store(c12, 1, 2) } }
        if rows > 2 { store(c20, 2, 0); if nb > 1 { store(c21, 2, 1) }; if nb > 2 { store(c22, 2, 2) } }
        if rows > 3 { store(c30, 3, 0); if nb > 1 { store(c31, 3, 1) }; if nb > 2 { store(c32, 3, 2) } }
        if rows > 4 { store(c40, 4, 0); if nb > 1 { store(c41, 4, 1) }; if nb > 2 { store(c42, 4, 2) } }
        if rows > 5 { store(c50, 5, 0); if nb > 1 { store(c51, 5, 1) }; if nb > 2 { store(c52, 5, 2) } }
        if rows > 6 { store(c60, 6, 0); if nb > 1 { store(c61, 6, 1) }; if nb > 2 { store(c62, 6, 2) } }
        if rows > 7 { store(c70, 7, 0); if nb > 1 { store(c71, 7, 1) }; if nb > 2 { store(c72, 7, 2) } }
    }

    @inline(__always)
    private func load(_ row: Int, _ block: Int) -> SIMD16<Float> {
        let first = block * 16
        let at = c + row * ldc + first
        if validColumns - first >= 16 { return UnsafeRawPointer(at).loadUnaligned(as: SIMD16<Float>.self) }
        var v = SIMD16<Float>()
        for j in 0..<max(0, validColumns - first) { v[j] = at[j] }
        return v
    }

    @inline(__always)
    private func store(_ v: SIMD16<Float>, _ row: Int, _ block: Int) {
        let first = block * 16
        let out = c + row * ldc + first
        if validColumns - first >= 16 {
            UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD16<Float>.self)
        } else {
            for j in 0..<max(0, validColumns - first) { out[j] = v[j] }
        }
    }
}
