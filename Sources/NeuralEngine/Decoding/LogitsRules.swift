/// Rules applied to a logits row before the log-softmax, as CTranslate2's logits processors.
enum LogitsRules {
    /// The value of a disabled token: float's lowest, not −∞ (CTranslate2 `DisableTokens`).
    static let disabled = -Float.greatestFiniteMagnitude

    /// Disables every token that would complete an n-gram already in `sequence`
    /// (CTranslate2 `NoRepeatNgram::apply`: find each earlier occurrence of the last n−1
    /// tokens and ban the token that followed it).
    static func applyNoRepeatNgram(_ n: Int, sequence: [Int], row: UnsafeMutablePointer<Float>) {
        guard n > 0, sequence.count >= n else { return }
        let length = sequence.count
        let suffixStart = length - n + 1
        var p = 0
        while p + n <= length {
            var match = true
            for i in 0..<(n - 1) where sequence[p + i] != sequence[suffixStart + i] {
                match = false
                break
            }
            if match { row[sequence[p + n - 1]] = disabled }
            p += 1
        }
    }

    /// Index of the first maximum (the first i with row[i] equal to the largest value, as a
    /// scalar `>` scan finds it). The maximum is taken over order-preserving integer keys, which
    /// LLVM vectorises; the second pass stops at the first match.
    static func argmax(_ row: UnsafePointer<Float>, count: Int) -> Int {
        var best = Int32.min
        for i in 0..<count { best = max(best, orderKey(row[i])) }
        let value = valueOfKey(best)
        for i in 0..<count where row[i] == value { return i }
        return 0
    }

    /// The `k` largest values of `count` entries, best first (earlier index first on ties).
    /// Blocks of 16 whose largest value cannot enter the list are skipped after one vectorised
    /// maximum; the rest are scanned one value at a time, so the result is the plain scan's.
    static func topK(_ values: UnsafePointer<Float>, count: Int, k: Int) -> [(index: Int, score: Float)] {
        var best: [(index: Int, score: Float)] = []
        best.reserveCapacity(k + 1)
        var threshold = -Float.infinity
        var start = 0
        while start < count {
            let end = min(count, start + 16)
            if best.count == k {
                var blockMax = Int32.min
                for i in start..<end { blockMax = max(blockMax, orderKey(values[i])) }
                if !(valueOfKey(blockMax) > threshold) {
                    start = end
                    continue
                }
            }
            for i in start..<end {
                let v = values[i]
                if best.count == k && !(v > threshold) { continue }
                var pos = best.count
                while pos > 0 && best[pos - 1].score < v { pos -= 1 }
                best.insert((i, v), at: pos)
                if best.count > k { best.removeLast() }
                if best.count == k { threshold = best[k - 1].score }
            }
            start = end
        }
        return best
    }

    /// An Int32 that orders like the float (for non-NaN values; −0 sorts just below +0).
    @inline(__always)
    static func orderKey(_ x: Float) -> Int32 {
        let b = Int32(bitPattern: x.bitPattern)
        return b ^ ((b >> 31) & 0x7FFF_FFFF)
    }

    /// The float whose `orderKey` is `key`.
    @inline(__always)
    static func valueOfKey(_ key: Int32) -> Float {
        Float(bitPattern: UInt32(bitPattern: key ^ ((key >> 31) & 0x7FFF_FFFF)))
    }
}
