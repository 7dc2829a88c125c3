/// Splits a deformatted stream into chunks of about `size` bytes for a pipeline.
///
/// Why chunk: a pipeline answers a request only when its last stage has seen the whole of it,
/// so one huge request holds all of its output in memory at every stage and gives no progress to
/// measure a deadline against; chunks of a few KB keep every stage busy and let the pool notice
/// a hang early. Unlike APy, which drops text beyond ten chunks, every byte lands in some chunk:
/// the chunks are contiguous ranges that cover the whole stream (`ChunkerTests` checks it).
enum Chunker {
    /// Contiguous ranges covering `text.bytes`, each ending at a sentence break when one lies in
    /// its second half, else at the last word break, else (one word or superblank longer than
    /// `size`) at the last safe byte, never inside an escape, a superblank or a UTF-8 character.
    static func ranges(of text: DeformattedText, size: Int) -> [Range<Int>] {
        let n = text.bytes.count
        let size = max(size, 16)
        var ranges: [Range<Int>] = []
        var start = 0
        while start < n {
            if n - start <= size {
                ranges.append(start..<n)
                break
            }
            let limit = start + size
            let end = lastBreak(text.sentenceBreaks, after: start + size / 2, upTo: limit)
                ?? lastBreak(text.breaks, after: start, upTo: limit)
                ?? safeCut(text.bytes, from: start, limit: limit)
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    /// The last element of sorted `breaks` in `(lower, upper]`.
    static func lastBreak(_ breaks: [Int], after lower: Int, upTo upper: Int) -> Int? {
        // Binary search for the first element > upper, then step back one.
        var lo = 0, hi = breaks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if breaks[mid] <= upper { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, breaks[lo - 1] > lower else { return nil }
        return breaks[lo - 1]
    }

    /// The last position in `(start, limit]` where the stream may be cut, or the first one after
    /// `limit` when a superblank spans the whole window.
    static func safeCut(_ bytes: [UInt8], from start: Int, limit: Int) -> Int {
        var depth = 0
        var lastSafe: Int?
        var i = start
        while i < bytes.count {
            if i > start && depth == 0 && (bytes[i] & 0xC0) != 0x80 {
                if i > limit, lastSafe != nil { break }
                lastSafe = i
                if i >= limit { break }
            }
            let b = bytes[i]
            if b == Byte.backslash {
                i += 2 // the escaped byte belongs to its backslash
                continue
            }
            if b == Byte.openBracket { depth += 1 } else if b == Byte.closeBracket, depth > 0 { depth -= 1 }
            i += 1
        }
        return lastSafe ?? bytes.count
    }
}
