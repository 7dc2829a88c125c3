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

    /// Index of the first maximum.
    static func argmax(_ row: UnsafePointer<Float>, count: Int) -> Int {
        var best = 0
        var value = row[0]
        for i in 1..<count where row[i] > value {
            value = row[i]
            best = i
        }
        return best
    }

    /// The `k` largest values of `count` entries, best first (earlier index first on ties).
    static func topK(_ values: UnsafePointer<Float>, count: Int, k: Int) -> [(index: Int, score: Float)] {
        var best: [(index: Int, score: Float)] = []
        best.reserveCapacity(k + 1)
        var threshold = -Float.infinity
        for i in 0..<count {
            let v = values[i]
            if best.count == k && !(v > threshold) { continue }
            var pos = best.count
            while pos > 0 && best[pos - 1].score < v { pos -= 1 }
            best.insert((i, v), at: pos)
            if best.count > k { best.removeLast() }
            if best.count == k { threshold = best[k - 1].score }
        }
        return best
    }
}
