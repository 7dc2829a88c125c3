/// The packed layout of int8 weights that both int8 kernels read (`VNNIGemm`: 16-column
/// blocks; `AVX2Int8Gemm`: 8-column blocks), the idea of oneDNN's packed "VNNI" B layout.
///
/// The weight B [n, k] is stored in blocks of `blockColumns` columns; inside a block, for each
/// group of 4 consecutive k ("a quad"), the block's columns' 4 bytes lie next to each other
/// (one register: 64 bytes for 16 columns, 32 for 8), so one multiply-add instruction adds 4
/// products to every column sum with A's quad broadcast. Padding columns and k beyond the matrix
/// are zero, so they add nothing. Lives in this Haswell-level module so packing runs on any CPU.
public struct QuadLayout: Sendable {
    /// Columns per packed block.
    public let blockColumns: Int

    public init(blockColumns: Int) { self.blockColumns = blockColumns }

    /// Number of blocks for `n` columns.
    public func blocks(_ n: Int) -> Int { (n + blockColumns - 1) / blockColumns }

    /// Number of 4-element groups along k.
    public func quads(_ k: Int) -> Int { (k + 3) / 4 }

    /// Bytes of one block's panel over depth `k`.
    public func panel(_ k: Int) -> Int { quads(k) * blockColumns * 4 }

    /// Bytes of the packed form of an [n, k] matrix.
    public func packedCount(n: Int, k: Int) -> Int { blocks(n) * panel(k) }

    /// The row stride A must have (k rounded up to a quad); pad bytes may hold anything.
    public func paddedDepth(_ k: Int) -> Int { quads(k) * 4 }

    /// Where B[j, p] of an [n, k] matrix lies in the packed bytes.
    @inline(__always)
    public func offset(column j: Int, depth p: Int, k: Int) -> Int {
        (j / blockColumns) * panel(k) + (p / 4) * blockColumns * 4 + (j % blockColumns) * 4 + p % 4
    }

    /// Packs row-major B [n, k] into `out` (`packedCount` bytes).
    public func pack(_ b: UnsafePointer<Int8>, n: Int, k: Int, into out: UnsafeMutablePointer<Int8>) {
        out.update(repeating: 0, count: packedCount(n: n, k: k))
        for j in 0..<n {
            let row = b + j * k
            for p in 0..<k { out[offset(column: j, depth: p, k: k)] = row[p] }
        }
    }
}

/// Visits the output of a packed GEMM in register tiles: groups of up to `blocksPerTile` column
/// blocks, whose packed panels stay in L1/L2 while every group of up to `rowsPerTile` rows passes
/// over them. `body(row, rows, block, blocks)` computes one tile.
@inlinable @inline(__always)
public func forEachTile(m: Int, blocks: Range<Int>, rowsPerTile: Int, blocksPerTile: Int,
                        _ body: (_ row: Int, _ rows: Int, _ block: Int, _ blockCount: Int) -> Void) {
    var jb = blocks.lowerBound
    while jb < blocks.upperBound {
        let nb = min(blocksPerTile, blocks.upperBound - jb)
        var i = 0
        while i < m {
            let rows = min(rowsPerTile, m - i)
            body(i, rows, jb, nb)
            i += rows
        }
        jb += nb
    }
}
