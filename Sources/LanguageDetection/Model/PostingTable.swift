/// A read-only map from a 64-bit key (an n-gram or a word, see ``TextFeatures``) to its
/// postings: the languages that know the key, each with one or more quantized values.
///
/// Rows are stored sorted by key in flat arrays (the file's layout, so loading is a copy);
/// an open-addressing index built at load time finds a row in one or two probes.
///
/// Keys are the 64-bit feature keys folded to 32 bits (``fold(_:)``), which halves the model.
/// With about a million keys per table, two keys collide with odds of about 1 in 10,000 each,
/// and an unknown n-gram matches a stored one with odds of about 1 in 4,000: either only blurs
/// one feature's statistics, never a decision.
struct PostingTable: Sendable, Equatable {
    /// Row keys, ascending.
    let keys: [UInt32]
    /// Row `r`'s postings are `starts[r]..<starts[r + 1]`.
    let starts: [UInt32]
    /// Language index of each posting.
    let languages: [UInt8]
    /// `valuesPerPosting` bytes per posting, posting-major.
    let values: [UInt8]
    /// How many values each posting carries.
    let valuesPerPosting: Int
    /// Slots of (key << 32 | row + 1), 0 marking an empty slot: the key travels with the row,
    /// so a lookup costs one cache miss, not two. At most two thirds full, so probes stay short.
    private let index: [UInt64]
    private let shift: UInt64

    /// Builds the table and its index. `keys` must be ascending and unique.
    init(keys: [UInt32], starts: [UInt32], languages: [UInt8], values: [UInt8], valuesPerPosting: Int) {
        precondition(starts.count == keys.count + 1 && values.count == languages.count * valuesPerPosting)
        self.keys = keys
        self.starts = starts
        self.languages = languages
        self.values = values
        self.valuesPerPosting = valuesPerPosting
        var bits = 4
        while (1 << bits) < keys.count * 3 / 2 { bits += 1 }
        self.shift = UInt64(64 - bits)
        var index = [UInt64](repeating: 0, count: 1 << bits)
        let mask = (1 << bits) - 1
        for (row, key) in keys.enumerated() {
            var slot = Self.slot(key, shift: shift)
            while index[slot] != 0 { slot = (slot + 1) & mask }
            index[slot] = UInt64(key) << 32 | UInt64(row + 1)
        }
        self.index = index
    }

    /// A 64-bit feature key as the table stores it.
    @inline(__always) static func fold(_ key: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: key ^ (key >> 32)) }

    /// The row of a 64-bit feature key, or nil.
    @inline(__always) func row(_ key64: UInt64) -> Int? {
        let key = Self.fold(key64)
        let mask = index.count - 1
        var slot = Self.slot(key, shift: shift)
        return index.withUnsafeBufferPointer { index in
            while true {
                let entry = index[slot]
                if entry == 0 { return nil }
                if UInt32(truncatingIfNeeded: entry >> 32) == key { return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1 }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The postings of a row.
    @inline(__always) func postings(_ row: Int) -> Range<Int> { Int(starts[row])..<Int(starts[row + 1]) }

    /// Fibonacci hashing of the key's bits (FNV's low bits alone cluster).
    @inline(__always) private static func slot(_ key: UInt32, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Bytes in memory (arrays and index), for the memory figure the benchmark reports.
    var byteCount: Int { keys.count * 4 + starts.count * 4 + languages.count + values.count + index.count * 8 }

    static func == (a: PostingTable, b: PostingTable) -> Bool {
        a.keys == b.keys && a.starts == b.starts && a.languages == b.languages && a.values == b.values
            && a.valuesPerPosting == b.valuesPerPosting
    }
}
