import Foundation
import NeuralCompute

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
    /// Row slots each per-layer buffer holds ([slots, capacity, D]).
    private var slots: Int
    /// The slot holding each row's cache, the same in every layer. Reordering beams moves slot
    /// numbers, not data: only a row chosen twice needs a copy (into a slot nobody keeps).
    private var slotOfRow: [Int]
    /// Number of cached positions.
    private(set) var length = 0

    var rows: Int { rowBatch.count }

    init<Backend>(weights: TransformerWeights<Backend>, encoded: EncoderOutput, rowBatch: [Int], workspace: Workspace) {
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
                    layer.crossAttention.memoryKV!.forward(m.baseAddress!, rows: total, into: out.baseAddress!, on: weights.backend, workspace: workspace)
                }
            }
            return kv
        }
        capacity = 16
        slots = rowBatch.count
        slotOfRow = Array(0..<rowBatch.count)
        let size = max(slots * capacity * depth, 1)
        keys = (0..<layers).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: size) }
        values = (0..<layers).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: size) }
    }

    deinit {
        keys.forEach { $0.deallocate() }
        values.forEach { $0.deallocate() }
    }

    /// Key and value cache rows of `row` in `layer` ([capacity, D] each).
    func cache(layer: Int, row: Int) -> (keys: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        let offset = slotOfRow[row] * capacity * depth
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
        guard origins.count <= slots else {
            resize(rows: origins, newCapacity: capacity)
            return
        }
        // The first row choosing an origin takes over its slot; later ones copy it into slots
        // that no new row takes. Those free slots are never a source (every source slot is
        // taken by its first chooser), so copies cannot overwrite data still to be read.
        var taken = [Bool](repeating: false, count: slots)
        var newSlots = [Int](repeating: -1, count: origins.count)
        for (i, o) in origins.enumerated() where !taken[slotOfRow[o]] {
            newSlots[i] = slotOfRow[o]
            taken[slotOfRow[o]] = true
        }
        var free = (0..<slots).lazy.filter { !taken[$0] }.makeIterator()
        let rowFloats = capacity * depth
        for (i, o) in origins.enumerated() where newSlots[i] < 0 {
            let slot = free.next()!
            for l in 0..<layers {
                (keys[l] + slot * rowFloats).update(from: keys[l] + slotOfRow[o] * rowFloats, count: length * depth)
                (values[l] + slot * rowFloats).update(from: values[l] + slotOfRow[o] * rowFloats, count: length * depth)
            }
            newSlots[i] = slot
        }
        slotOfRow = newSlots
    }

    /// New buffers of `origins.count` slots and `newCapacity` positions, rows in order.
    private func resize(rows origins: [Int], newCapacity: Int) {
        let d = depth
        let size = max(origins.count * newCapacity * d, 1)
        for l in 0..<layers {
            let newKeys = UnsafeMutablePointer<Float>.allocate(capacity: size)
            let newValues = UnsafeMutablePointer<Float>.allocate(capacity: size)
            for (i, o) in origins.enumerated() {
                let from = slotOfRow[o] * capacity * d
                (newKeys + i * newCapacity * d).update(from: keys[l] + from, count: length * d)
                (newValues + i * newCapacity * d).update(from: values[l] + from, count: length * d)
            }
            keys[l].deallocate()
            values[l].deallocate()
            keys[l] = newKeys
            values[l] = newValues
        }
        capacity = newCapacity
        slots = origins.count
        slotOfRow = Array(0..<origins.count)
    }
}
