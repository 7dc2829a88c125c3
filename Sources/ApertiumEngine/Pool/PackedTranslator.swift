import TranslationCore

/// Sends deformatted texts through one pair's pool as one request, short texts packed into
/// shared chunks (``ChunkPacker``), and reformats the answers, one per text, in order.
struct PackedTranslator: Sendable {
    let pool: PipelinePool<ApertiumPipeline>
    let packer: ChunkPacker
    let chunkSize: Int

    /// One translation per stream (`nil` → empty text → `""`).
    func translate(_ streams: [DeformattedText?]) async throws -> [String] {
        let plan = packer.plan(streams, chunkSize: chunkSize)
        let outputs = try await submit(plan.chunks)
        var pieces: [Int: [[UInt8]]] = [:]
        var piecesExpected: [Int: Int] = [:]
        for case .packed(let chunk, _) in plan.parts { piecesExpected[chunk, default: 0] += 1 }
        var results: [String] = []
        var unpacked: [Int] = []
        for (index, part) in plan.parts.enumerated() {
            switch part {
            case .empty, .chunks:
                results.append(Self.reformat(part, outputs))
            case .packed(let chunk, let piece):
                let split = pieces[chunk] ?? packer.split(outputs[chunk])
                pieces[chunk] = split
                if split.count == piecesExpected[chunk] {
                    results.append(Reformatter.reformat(split[piece]))
                } else {
                    results.append("")
                    unpacked.append(index)
                }
            }
        }
        if !unpacked.isEmpty {
            // A packed answer did not split cleanly: translate those texts one by one instead.
            let fallback = packer.plan(unpacked.map { streams[$0] }, chunkSize: chunkSize, packing: false)
            let retried = try await submit(fallback.chunks)
            for (k, index) in unpacked.enumerated() { results[index] = Self.reformat(fallback.parts[k], retried) }
        }
        return results
    }

    /// The text of an unpacked part from the answer chunks.
    private static func reformat(_ part: ChunkPacker.Part, _ outputs: [[UInt8]]) -> String {
        guard case .chunks(let range) = part else { return "" }
        return Reformatter.reformat(Array(outputs[range].joined()))
    }

    private func submit(_ chunks: [[UInt8]]) async throws -> [[UInt8]] {
        let outputs = try await pool.submit(chunks)
        guard outputs.count == chunks.count else {
            throw TranslationError(.engineFailure, "The Apertium pipeline for \(pool.label) answered \(outputs.count) of \(chunks.count) chunks.")
        }
        return outputs
    }
}
