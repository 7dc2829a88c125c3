import CBLAS
import Foundation

/// The decoding state of one batch: the projected encoder memory (once per batch, shared by
/// all beams of a sentence) and the growing self-attention key/value caches of each row.
///
/// Owned by the worker that runs the batch; rows are hypotheses (batch × beam) and are
/// reordered/dropped with `select(_:)` as beams are chosen and sentences finish.
final class DecoderState {
    let depth: Int
    let layers: Int
    /// Encoder sequence each row attends to.
    private(set) var rowBatch: [Int]
    let memoryOffsets: [Int]
    let memoryLengths: [Int]
    /// Per layer: fused cross-attention keys;values of the encoder output, [total, 2D].
    let memoryKV: [[Float]]
    /// Per layer: caches [rows, capacity, D].
    private var keys: [UnsafeMutablePointer<Float>]
    private var values: [UnsafeMutablePointer<Float>]
    private(set) var capacity: Int
    /// Number of cached positions.
    private(set) var length = 0

    var rows: Int { rowBatch.count }

    init(weights: TransformerWeights, encoded: EncoderOutput, rowBatch: [Int], workspace: Workspace) {
        depth = weights.depth
        layers = weights.decoderLayers.count
        self.rowBatch = rowBatch
        memoryOffsets = encoded.offsets
        memoryLengths = encoded.lengths
        let total = encoded.lengths.reduce(0, +)
        memoryKV = weights.decoderLayers.map { layer in
            var kv = [Float](repeating: 0, count: total * 2 * weights.depth)
            encoded.memory.withUnsafeBufferPointer { m in
                kv.withUnsafeMutableBufferPointer { out in
                    layer.crossAttention.memoryKV!.forward(m.baseAddress!, rows: total, into: out.baseAddress!, workspace: workspace)
                }
            }
            return kv
        }
        capacity = 16
        let size = rowBatch.count * capacity * depth
        keys = (0..<layers).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(size, 1)) }
        values = (0..<layers).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(size, 1)) }
    }

    deinit {
        keys.forEach { $0.deallocate() }
        values.forEach { $0.deallocate() }
    }

    /// Key and value cache rows of `row` in `layer` ([capacity, D] each).
    func cache(layer: Int, row: Int) -> (keys: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        let offset = row * capacity * depth
        return (keys[layer] + offset, values[layer] + offset)
    }

    /// Makes room for one more position.
    func prepareStep() {
        guard length + 1 > capacity else { return }
        resize(rows: Array(0..<rows), newCapacity: capacity * 2)
    }

    /// Marks the position written by the current step as cached.
    func commitStep() { length += 1 }

    /// Keeps rows `origins` (old row indices, repeats allowed) in that order.
    func select(_ origins: [Int]) {
        rowBatch = origins.map { rowBatch[$0] }
        resize(rows: origins, newCapacity: capacity)
    }

    private func resize(rows origins: [Int], newCapacity: Int) {
        let d = depth
        let size = max(origins.count * newCapacity * d, 1)
        for l in 0..<layers {
            let newKeys = UnsafeMutablePointer<Float>.allocate(capacity: size)
            let newValues = UnsafeMutablePointer<Float>.allocate(capacity: size)
            for (i, o) in origins.enumerated() {
                newKeys.advanced(by: i * newCapacity * d).update(from: keys[l] + o * capacity * d, count: length * d)
                newValues.advanced(by: i * newCapacity * d).update(from: values[l] + o * capacity * d, count: length * d)
            }
            keys[l].deallocate()
            values[l].deallocate()
            keys[l] = newKeys
            values[l] = newValues
        }
        capacity = newCapacity
    }
}
