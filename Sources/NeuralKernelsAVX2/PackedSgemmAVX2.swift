import Builtin

/// float32 C = A·Bᵀ with AVX2 FMA over a weight B [n, k] packed once at load, and the packer
/// for that layout (shared with `PackedSgemm` in NeuralKernelsAVX512, which reads the same
/// panels 16 lanes at a time; the packer lives here because it must run on every CPU).
///
/// Layout: blocks of 16 columns; inside a block, for each p < k, the 16 columns' B[j, p] are
/// contiguous. Each C value is one fused multiply-add chain over p in order, from 0. Why not
/// OpenBLAS: its sgemm copies the weight operand on every call.
public enum PackedSgemmAVX2 {
    /// Floats of the packed form of an [n, k] matrix.
    public static func packedCount(n: Int, k: Int) -> Int { (n + 15) / 16 * 16 * k }

    /// Packs row-major B [n, k] into `out` (`packedCount` floats; padding columns are 0).
    public static func pack(_ b: UnsafePointer<Float>, n: Int, k: Int, into out: UnsafeMutablePointer<Float>) {
        out.update(repeating: 0, count: packedCount(n: n, k: k))
        for j in 0..<n {
            let block = out + (j / 16) * k * 16 + j % 16
            let row = b + j * k
            for p in 0..<k { block[p * 16] = row[p] }
        }
    }

    /// C[i, j] = Σₚ a[i, p]·b[j, p] for rows i < m and the 16-column blocks `blocks`
    /// (the last block stops at n). `a` is [m, lda], C is [m, ldc].
    public static func multiply(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
                                packed: UnsafePointer<Float>, blocks: Range<Int>,
                                c: UnsafeMutablePointer<Float>, ldc: Int) {
        let panel = k * 16
        for jb in blocks {
            var i = 0
            while i < m {
                let rows = min(6, m - i)
                let tile = Tile6(depth: k, a: a + i * lda, lda: lda, b: packed + jb * panel,
                                 c: c + i * ldc + jb * 16, ldc: ldc, validColumns: n - jb * 16)
                // One specialised loop per row count (the count is a type, so each specialisation
                // has it as a constant without relying on inlining).
                switch rows {
                case 6: tile.run(Rows6.self)
                case 5: tile.run(Rows5.self)
                case 4: tile.run(Rows4.self)
                case 3: tile.run(Rows3.self)
                case 2: tile.run(Rows2.self)
                default: tile.run(Rows1.self)
                }
                i += rows
            }
        }
    }
}

/// Up to 6 rows × 16 columns: 12 accumulators, the most AVX2's 16 registers allow with the two
/// weight vectors and one broadcast.
private struct Tile6 {
    let depth: Int
    let a: UnsafePointer<Float>
    let lda: Int
    let b: UnsafePointer<Float>
    let c: UnsafeMutablePointer<Float>
    let ldc: Int
    let validColumns: Int

    /// Specialised per `R`, where `R.count` is a constant, so unused accumulators disappear.
    func run<R: RowCount>(_: R.Type) {
        let rows = R.count
        let zero = SIMD8<Float>()
        var c0l = zero, c0h = zero, c1l = zero, c1h = zero, c2l = zero, c2h = zero
        var c3l = zero, c3h = zero, c4l = zero, c4h = zero, c5l = zero, c5h = zero
        var pb = UnsafeRawPointer(b)
        var pa = a
        let l1 = lda, l2 = 2 &* lda, l3 = 3 &* lda, l4 = 4 &* lda, l5 = 5 &* lda
        for _ in 0..<depth {
            let lo = pb.loadUnaligned(as: SIMD8<Float>.self)
            let hi = pb.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
            var x = SIMD8<Float>(repeating: pa[0])
            c0l = fma(x, lo, c0l); c0h = fma(x, hi, c0h)
            if rows > 1 { x = SIMD8<Float>(repeating: pa[l1]); c1l = fma(x, lo, c1l); c1h = fma(x, hi, c1h) }
            if rows > 2 { x = SIMD8<Float>(repeating: pa[l2]); c2l = fma(x, lo, c2l); c2h = fma(x, hi, c2h) }
            if rows > 3 { x = SIMD8<Float>(repeating: pa[l3]); c3l = fma(x, lo, c3l); c3h = fma(x, hi, c3h) }
            if rows > 4 { x = SIMD8<Float>(repeating: pa[l4]); c4l = fma(x, lo, c4l); c4h = fma(x, hi, c4h) }
            if rows > 5 { x = SIMD8<Float>(repeating: pa[l5]); c5l = fma(x, lo, c5l); c5h = fma(x, hi, c5h) }
            pb += 64
            pa += 1
        }
        store(0, c0l, c0h)
        if rows > 1 { store(1, c1l, c1h) }
        if rows > 2 { store(2, c2l, c2h) }
        if rows > 3 { store(3, c3l, c3h) }
        if rows > 4 { store(4, c4l, c4h) }
        if rows > 5 { store(5, c5l, c5h) }
    }

    @inline(__always)
    private func store(_ row: Int, _ low: SIMD8<Float>, _ high: SIMD8<Float>) {
        let out = c + row * ldc
        if validColumns >= 16 {
            UnsafeMutableRawPointer(out).storeBytes(of: low, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + 8).storeBytes(of: high, as: SIMD8<Float>.self)
        } else {
            for j in 0..<min(8, validColumns) { out[j] = low[j] }
            for j in 8..<max(8, validColumns) { out[j] = high[j - 8] }
        }
    }
}

/// A tile's row count as a type, for specialisation.
private protocol RowCount { static var count: Int { get } }
private enum Rows1: RowCount { static var count: Int { 1 } }
private enum Rows2: RowCount { static var count: Int { 2 } }
private enum Rows3: RowCount { static var count: Int { 3 } }
private enum Rows4: RowCount { static var count: Int { 4 } }
private enum Rows5: RowCount { static var count: Int { 5 } }
private enum Rows6: RowCount { static var count: Int { 6 } }

/// a·b + c per lane, rounded once (`vfmadd231ps`).
@inline(__always)
private func fma(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> {
    var out = SIMD8<Float>()
    out._storage._value = Builtin.int_fma_Vec8xFPIEEE32(a._storage._value, b._storage._value, c._storage._value)
    return out
}
