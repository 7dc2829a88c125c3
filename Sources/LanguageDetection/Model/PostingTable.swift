/// A read-only map from a feature key (an n-gram or a word, see ``TextFeatures``) to its
/// postings: the languages that know the key, each with one or two quantized values.
///
/// Built once at load. A row is a record in one flat byte array: its posting count, then (in a
/// table built with ``Builder/init(valuesPerPosting:keyBits:rows:postings:bitmapLanguages:)``
/// and for rows of at least ``bitmapMinimum`` postings) a bitmap of its languages, then per
/// posting the language and its values (`1 + valuesPerPosting` bytes), languages ascending. An
/// open-addressing index of (key, record offset) finds it: a lookup touches one index slot and
/// one record, two cache misses at most, where separate key, start, language and value arrays
/// cost four. The bitmap finds one language's posting without a search: its bit says whether
/// the row has it, the bits below it (a population count) say where (``posting(_:language:)``).
///
/// Keys are the 64-bit feature keys folded to 32 bits (``fold(_:)``), of which a table may keep
/// fewer (``keyBits``, the high ones). With about a million keys per table and 32 bits, an
/// unknown n-gram matches a stored one with odds of about 1 in 4,000, and two stored keys fold
/// together with odds of about 1 in 4,000 each (the later row is then unreachable): either only
/// blurs one feature's statistics, never a decision. Fewer bits are a model file's option but
/// cost decisions: with 26-bit word keys (0.6 MB smaller) an unknown word finds a listed
/// word's row once in 90, and "hola" took a Ganda word's gain of 17 nats: Ganda at 0.91.
struct PostingTable: Sendable, Equatable {
    /// Rows' records, back to back.
    let records: [UInt8]
    /// Values after the language byte of each posting.
    let valuesPerPosting: Int
    /// Slots of (key << 32 | record offset + 1), 0 marking an empty slot: the key travels with
    /// the offset, so finding a row costs one cache miss. At most two thirds full.
    private let index: [UInt64]
    /// Rows stored.
    let rowCount: Int
    /// Bits of the folded key kept (1...32).
    let keyBits: Int
    /// Bytes of a row's language bitmap (a multiple of 8; 0: the table has no bitmaps).
    let bitmapBytes: Int
    /// Rows with at least this many postings carry a language bitmap (in a table with bitmaps);
    /// a shorter row is scanned: its languages fit in one cache line with its count.
    static let bitmapMinimum = 9

    /// Collects rows in any order, then builds the index.
    struct Builder {
        private var records: [UInt8] = []
        private var keys: [UInt32] = []
        private var offsets: [UInt32] = []
        let valuesPerPosting: Int
        let keyBits: Int
        let bitmapBytes: Int
        /// Offset of the current row's bitmap, -1 when it has none.
        private var bitmap = -1

        /// - Parameter bitmapLanguages: with more than 0, rows of at least ``bitmapMinimum``
        ///   postings get a bitmap of this many languages (every posting's language must be below it).
        init(valuesPerPosting: Int, keyBits: Int = 32, rows: Int = 0, postings: Int = 0, bitmapLanguages: Int = 0) {
            precondition((1...32).contains(keyBits))
            self.valuesPerPosting = valuesPerPosting
            self.keyBits = keyBits
            self.bitmapBytes = (bitmapLanguages + 63) / 64 * 8
            records.reserveCapacity(rows + postings * (1 + valuesPerPosting))
            keys.reserveCapacity(rows)
            offsets.reserveCapacity(rows)
        }

        /// Starts the row of `key` with `count` postings (1...255), to be followed by exactly
        /// `count` calls of ``posting(_:_:)``.
        mutating func row(_ key: UInt64, postings count: Int) {
            row(reduced: PostingTable.reduce(key, bits: keyBits), postings: count)
        }

        /// ``row(_:postings:)`` for a key already reduced to the table's ``keyBits``.
        mutating func row(reduced key: UInt32, postings count: Int) {
            precondition((1...255).contains(count))
            keys.append(key)
            offsets.append(UInt32(records.count))
            records.append(UInt8(count))
            bitmap = -1
            if bitmapBytes > 0 && count >= PostingTable.bitmapMinimum {
                bitmap = records.count
                records.append(contentsOf: repeatElement(0, count: bitmapBytes))
            }
        }

        /// One posting of the current row: its language and its value (and a second value
        /// when the table has two per posting).
        @inline(__always) mutating func posting(_ language: UInt8, _ value: UInt8, _ second: UInt8 = 0) {
            postingCount += 1
            if bitmap >= 0 {
                precondition(Int(language) < bitmapBytes * 8, "language outside the bitmap")
                records[bitmap + Int(language) / 8] |= 1 << (language % 8)
            }
            records.append(language)
            records.append(value)
            if valuesPerPosting > 1 { records.append(second) }
        }

        /// Postings added so far.
        private(set) var postingCount = 0

        func build() -> PostingTable {
            PostingTable(records: records, valuesPerPosting: valuesPerPosting, keyBits: keyBits, bitmapBytes: bitmapBytes,
                         keys: keys, offsets: offsets)
        }
    }

    private init(records: [UInt8], valuesPerPosting: Int, keyBits: Int, bitmapBytes: Int, keys: [UInt32], offsets: [UInt32]) {
        self.records = records
        self.valuesPerPosting = valuesPerPosting
        self.keyBits = keyBits
        self.bitmapBytes = bitmapBytes
        self.rowCount = keys.count
        var index = [UInt64](repeating: 0, count: max(4, keys.count * 3 / 2))
        for (key, offset) in zip(keys, offsets) {
            var slot = Self.slot(key, count: index.count)
            while index[slot] != 0 {
                // A key folded onto an earlier row's: the earlier row keeps it.
                if UInt32(truncatingIfNeeded: index[slot] >> 32) == key { break }
                slot = slot + 1 == index.count ? 0 : slot + 1
            }
            if index[slot] == 0 { index[slot] = UInt64(key) << 32 | UInt64(offset + 1) }
        }
        self.index = index
    }

    /// A 64-bit feature key as the table stores it.
    @inline(__always) static func fold(_ key: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: key ^ (key >> 32)) }

    /// A 64-bit feature key as a table of `bits`-bit keys stores it: the high bits of its fold.
    @inline(__always) static func reduce(_ key: UInt64, bits: Int) -> UInt32 { fold(key) >> UInt32(32 - bits) }

    /// The record offset of a 64-bit feature key's row, or -1.
    @inline(__always) func row(_ key64: UInt64) -> Int32 {
        let key = Self.reduce(key64, bits: keyBits)
        return index.withUnsafeBufferPointer { index in
            var slot = Self.slot(key, count: index.count)
            while true {
                let entry = index[slot]
                if entry == 0 { return -1 }
                if UInt32(truncatingIfNeeded: entry >> 32) == key { return Int32(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1 }
                slot = slot + 1 == index.count ? 0 : slot + 1
            }
        }
    }

    /// The postings of the row at `offset` as (language, first value, second value or 0).
    func postings(_ offset: Int32) -> [(language: UInt8, value: UInt8, second: UInt8)] {
        guard offset >= 0 else { return [] }
        let start = firstPosting(offset), width = 1 + valuesPerPosting
        return (0..<Int(records[Int(offset)])).map { p in
            let at = start + p * width
            return (records[at], records[at + 1], valuesPerPosting > 1 ? records[at + 2] : 0)
        }
    }

    /// The index in ``records`` of the first posting's language byte of the row at `offset`.
    @inline(__always) func firstPosting(_ offset: Int32) -> Int {
        records.withUnsafeBufferPointer { Self.firstPosting(offset, in: $0, bitmapBytes: bitmapBytes) }
    }

    /// ``firstPosting(_:)`` on the records' memory (for the scorer's loops).
    @inline(__always) static func firstPosting(_ offset: Int32, in records: UnsafeBufferPointer<UInt8>, bitmapBytes: Int) -> Int {
        let o = Int(offset)
        return o + 1 + (bitmapBytes > 0 && Int(records[o]) >= bitmapMinimum ? bitmapBytes : 0)
    }

    /// The index of the language byte of `language`'s posting in the row at `offset`, -1 when
    /// the row has none: through the bitmap where the row has one, else by a scan.
    @inline(__always) static func posting(_ offset: Int32, language: Int, in records: UnsafeBufferPointer<UInt8>,
                                          bitmapBytes: Int, valuesPerPosting: Int) -> Int {
        let o = Int(offset)
        let count = Int(records[o])
        let width = 1 + valuesPerPosting
        if bitmapBytes == 0 || count < bitmapMinimum {
            var at = o + 1
            for _ in 0..<count {
                let l = Int(records[at])
                if l >= language { return l == language ? at : -1 }
                at += width
            }
            return -1
        }
        let base = UnsafeRawPointer(records.baseAddress!) + (o + 1)
        let wordIndex = language >> 6
        guard wordIndex * 8 < bitmapBytes else { return -1 }
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: wordIndex * 8, as: UInt64.self))
        let bit = UInt64(1) << UInt64(language & 63)
        guard word & bit != 0 else { return -1 }
        var rank = (word & (bit - 1)).nonzeroBitCount
        for w in 0..<wordIndex {
            rank += UInt64(littleEndian: base.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)).nonzeroBitCount
        }
        return o + 1 + bitmapBytes + width * rank
    }

    /// Multiply-shift hashing onto `count` slots (Fibonacci mixing, then Lemire's range
    /// reduction, so the table need not be a power of two; FNV's low bits alone cluster).
    @inline(__always) private static func slot(_ key: UInt32, count: Int) -> Int {
        let mixed = UInt32(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32)
        return Int(truncatingIfNeeded: (UInt64(mixed) &* UInt64(count)) >> 32)
    }

    /// Bytes in memory (records and index), for the memory figure the benchmark reports.
    var byteCount: Int { records.count + index.count * 8 }

    static func == (a: PostingTable, b: PostingTable) -> Bool {
        a.records == b.records && a.valuesPerPosting == b.valuesPerPosting && a.keyBits == b.keyBits
            && a.bitmapBytes == b.bitmapBytes && a.index == b.index
    }
}
