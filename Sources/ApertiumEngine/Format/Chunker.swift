/// Splits a deformatted stream into chunks of about `size` bytes for a pipeline.
///
/// Why chunk: a pipeline answers a request only when its last stage has seen the whole of it,
/// so one huge request holds all of its output in memory at every stage and gives no progress to
/// measure a deadline against; chunks of a few KB keep every stage busy and let the pool notice
/// a hang early. Unlike APy, which drops text beyond ten chunks, every byte lands in some chunk:
/// the chunks are contiguous ranges that cover the whole stream (`ChunkerTests` checks it).
enum Chunker {
    /// Contiguous ranges covering `text.bytes`. A chunk ends at a sentence break: the last one in
    /// the second half of `size` when there is one, else the first one after `size` that keeps
    /// the chunk within `maxSize` (default `size`), so that sentences are kept whole, and only a
    /// sentence longer than `maxSize` is cut, at its last word break within it. A chunk never
    /// ends inside a word: a word (or superblank) longer than `maxSize` makes its chunk longer
    /// instead, since each chunk is analysed on its own and a cut word would come back as two
    /// words (two unknown ones, marked `*` where marks are on, or a known word translated out
    /// of another).
    static func ranges(of text: DeformattedText, size: Int, maxSize: Int? = nil) -> [Range<Int>] {
        let n = text.bytes.count
        let size = max(size, 16)
        let maxSize = max(maxSize ?? size, size)
        var ranges: [Range<Int>] = []
        var start = 0
        while start < n {
            if n - start <= size {
                ranges.append(start..<n)
                break
            }
            let target = start + size, limit = start + maxSize
            let end = lastBreak(text.sentenceBreaks, after: start + size / 2, upTo: target)
                ?? firstBreak(text.sentenceBreaks, after: target).flatMap { $0 <= limit ? $0 : nil }
                ?? (n <= limit ? n : nil)
                ?? lastBreak(text.breaks, after: start, upTo: limit)
                ?? firstBreak(text.breaks, after: limit)
                ?? n
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    /// The first element of sorted `breaks` above `lower`.
    static func firstBreak(_ breaks: [Int], after lower: Int) -> Int? {
        var lo = 0, hi = breaks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if breaks[mid] <= lower { lo = mid + 1 } else { hi = mid }
        }
        return lo < breaks.count ? breaks[lo] : nil
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
}
