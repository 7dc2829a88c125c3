import TranslationCore

/// Sends deformatted texts through one pool and reformats the answers, one per text, in order.
///
/// Every chunk travels as a frame of its own (it ends in a NUL), and every stage of a pipeline
/// starts each frame from the state it was started with: the stages reset at a NUL, and
/// apertium-tagger, which does not, runs as `glossa-apertium-tagger` (see its main.cpp). So the
/// answer to a chunk depends on its bytes alone: not on what the pipeline translated before, not
/// on the other texts of the request, not on which pipeline runs it. This is why texts are never
/// packed together into one frame (apertium-anaphora, for one, looks for a pronoun's antecedent
/// in the sentences before it, which would then be another text's), and why the chunks of one
/// request may be spread over several pipelines at once.
struct ChunkedTranslator: Sendable {
    let pool: PipelinePool<ApertiumPipeline>
    /// Target chunk size in bytes (see ``ApertiumEngine/Configuration/chunkSize``).
    let chunkSize: Int
    /// Longest chunk kept whole to end at a sentence break (``ApertiumEngine/Configuration/maxChunkSize``).
    let maxChunkSize: Int
    /// Most pipelines one request's chunks are spread over.
    let spread: Int

    /// `.[]`: the deformatters' forced sentence end.
    static let forcedSentenceEnd: [UInt8] = [Byte.period, Byte.openBracket, Byte.closeBracket]

    /// One translation per stream (`nil` → empty text → `""`).
    func translate(_ streams: [DeformattedText?]) async throws -> [String] {
        var chunks: [[UInt8]] = []
        var parts: [Range<Int>?] = []
        for stream in streams {
            guard let stream, !stream.bytes.isEmpty else { parts.append(nil); continue }
            let first = chunks.count
            let ranges = Chunker.ranges(of: stream, size: chunkSize, maxSize: maxChunkSize)
            for (k, range) in ranges.enumerated() {
                // Every chunk but a text's last (which the deformatter closed) gets a forced
                // sentence end, which the reformatter removes again. Why: a frame with no word in
                // it (`\^ ` before a long word) made lrx-proc answer without its NUL, and the
                // pipeline lost its framing; `.` is always a word.
                // A raw stream (sent already deformatted) may end without one: it gets one too,
                // removed again from the answer (``rawOutput(_:closed:)``).
                let last = k == ranges.count - 1 && !stream.needsSentenceEnd
                chunks.append(Array(stream.bytes[range]) + (last ? [] : Self.forcedSentenceEnd))
            }
            parts.append(first..<chunks.count)
        }
        let outputs = try await spreadOverPipelines(chunks)
        return zip(streams, parts).map { stream, part in
            guard let stream, let part else { return "" }
            guard stream.reformats else {
                return stream.wordForms.restore(Self.rawOutput(Array(outputs[part]), closed: stream.needsSentenceEnd))
            }
            return Reformatter.reformat(Array(outputs[part].joined()), wordForms: stream.wordForms)
        }
    }

    /// A text's chunk outputs joined as the pipeline wrote them, less the forced sentence end
    /// this translator added to every chunk but the last, and to the last too when it `closed`
    /// the text (so the answer does not depend on where the chunks were cut); the deformatter's
    /// own `.[]` at the end stays, as in APy's answer.
    static func rawOutput(_ chunks: [[UInt8]], closed: Bool = false) -> String {
        var out: [UInt8] = []
        for (k, chunk) in chunks.enumerated() {
            if k < chunks.count - 1 || closed, chunk.count >= forcedSentenceEnd.count, Array(chunk.suffix(forcedSentenceEnd.count)) == forcedSentenceEnd {
                out += chunk.dropLast(forcedSentenceEnd.count)
            } else {
                out += chunk
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits `chunks` into up to `spread` runs of about equal size, runs them as separate pool
    /// requests (so idle pipelines take them at once) and joins the answers in order.
    private func spreadOverPipelines(_ chunks: [[UInt8]]) async throws -> [[UInt8]] {
        let runs = Self.runs(byteCounts: chunks.map(\.count), count: spread)
        if runs.count <= 1 { return try await submit(chunks) }
        return try await withThrowingTaskGroup(of: (Int, [[UInt8]]).self) { group in
            for (index, run) in runs.enumerated() {
                let slice = Array(chunks[run])
                group.addTask { (index, try await submit(slice)) }
            }
            var answers = [[[UInt8]]](repeating: [], count: runs.count)
            for try await (index, answer) in group { answers[index] = answer }
            return answers.flatMap { $0 }
        }
    }

    /// Contiguous runs covering `byteCounts`, at most `count` of them, each holding about an equal
    /// share of the bytes (a run always holds at least one chunk).
    static func runs(byteCounts: [Int], count: Int) -> [Range<Int>] {
        guard !byteCounts.isEmpty else { return [] }
        let count = max(1, min(count, byteCounts.count))
        let total = byteCounts.reduce(0, +)
        var runs: [Range<Int>] = []
        var start = 0, sum = 0
        for (i, bytes) in byteCounts.enumerated() {
            sum += bytes
            let remainingRuns = count - runs.count - 1
            let share = total * (runs.count + 1) / count
            let chunksLeft = byteCounts.count - (i + 1)
            // Close the run once it holds its share (or when every chunk left is needed for the
            // runs still to come), always leaving a chunk for each of them.
            if remainingRuns > 0, chunksLeft >= remainingRuns, sum >= share || chunksLeft == remainingRuns {
                runs.append(start..<(i + 1))
                start = i + 1
            }
        }
        runs.append(start..<byteCounts.count)
        return runs
    }

    private func submit(_ chunks: [[UInt8]]) async throws -> [[UInt8]] {
        let outputs = try await pool.submit(chunks)
        guard outputs.count == chunks.count else {
            throw TranslationError(.engineFailure, "The Apertium pipeline for \(pool.label) answered \(outputs.count) of \(chunks.count) chunks.")
        }
        return outputs
    }
}
