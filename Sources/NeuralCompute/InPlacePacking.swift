/// Packs a row-major matrix into a blocked GEMM layout inside its own array.
///
/// Why in place: a model's weights are converted once at load, and packing into a second array
/// would hold every matrix twice at the peak. The layouts here keep each block of `blockRows`
/// rows in the same elements it occupies row-major, so a block is copied to a small scratch and
/// packed back where it was.
enum InPlacePacking {
    /// Pads `values` [rows, depth] to whole blocks with `zero`, then rewrites every block with
    /// `packBlock(rowMajorBlock, destination)`.
    static func pack<T>(_ values: inout [T], rows: Int, depth: Int, blockRows: Int, zero: T,
                        packBlock: (UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void) {
        let blocks = (rows + blockRows - 1) / blockRows
        let blockCount = blockRows * depth
        values.append(contentsOf: repeatElement(zero, count: blocks * blockCount - values.count))
        let scratch = UnsafeMutablePointer<T>.allocate(capacity: blockCount)
        defer { scratch.deallocate() }
        values.withUnsafeMutableBufferPointer { buffer in
            for b in 0..<blocks {
                let block = buffer.baseAddress! + b * blockCount
                scratch.initialize(from: block, count: blockCount)
                packBlock(scratch, block)
                scratch.deinitialize(count: blockCount)
            }
        }
    }
}
