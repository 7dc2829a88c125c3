/// Visits the output of a packed GEMM in register tiles: groups of up to 4 column blocks, whose
/// packed panels stay in L1/L2 while every group of up to 4 rows passes over them.
/// `body(row, rows, block, blocks)` computes one tile.
@inline(__always)
func forEachTile(m: Int, blocks: Range<Int>, _ body: (_ row: Int, _ rows: Int, _ block: Int, _ blockCount: Int) -> Void) {
    var jb = blocks.lowerBound
    while jb < blocks.upperBound {
        let nb = min(4, blocks.upperBound - jb)
        var i = 0
        while i < m {
            let rows = min(4, m - i)
            body(i, rows, jb, nb)
            i += rows
        }
        jb += nb
    }
}
