/// A read-only map from a feature key (an n-gram or a word, see ``TextFeatures``) to its
/// postings: the languages that know the key, each with one or two quantized values.
///
/// Built once at load. A row is a record in one flat byte array: its posting count, then (in a
/// table built with ``Builder/init(valuesPerPosting:keyBits:rows:postings:denseOrdinals:)``
/// and for rows of at least ``denseMinimum`` postings) the row's *dense ordinal*, then per
/// posting the language and its values (`1 + valuesPerPosting` bytes), languages ascending. An
/// open-addressing index of (key, record offset) finds it: a lookup touches one index slot and
/// one record, two cache misses at most, where separate key, start, language and value arrays
/// cost four. The dense ordinal numbers the long rows 0, 1, 2, … in the order they were
/// added, so that a reader can keep a per-language array for each of them
/// (``ScoringTables``: one load per language instead of a search of the row).
///
/// Keys are the 64-bit feature keys folded to 32 bits (``fold(_:)``), of which a table may keep
/// fewer (``keyBits``, the high ones). With about a million keys per table and 32 bits, an
/// unknown n-gram matches a stored one with odds of about 1 in 4,000, and two stored keys fold
/// together with odds of about 1 in 4,000 each (the later row is then unreachable): either only
/// blurs one feature's statistics, never a decision. Fewer bits are a model file's option but
/// cost decisions: with 26-bit word keys (0.6 MB smaller) an unknown word finds a listed
/// word's row once in 90, and "hola" took a Ganda word's gain of 17 nats: Ganda at 0.91.
///
/// The records and the index live in memory the table owns (``Storage``), so that a reader
/// holding the table can use plain pointers into them without retaining arrays per call.
struct PostingTable: Sendable, Equatable {
    /// Rows' records, back to back (valid while the table lives).
    var records: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(storage.records) }
    /// Values after the language byte of each posting.
    let valuesPerPosting: Int
    /// Rows stored.
    let rowCount: Int
    /// Bits of the folded key kept (1...32).
    let keyBits: Int
    /// Bytes of a long row's dense ordinal (4, little-endian; 0: the table has none).
    let ordinalBytes: Int
    /// Rows that carry a dense ordinal (ordinals are `0..<denseRowCount`).
    let denseRowCount: Int
    /// Rows with at least this many postings carry a dense ordinal (in a table with ordinals);
    /// a shorter row is scanned. A pure speed setting (the scores are the same either way):
    /// 24 beat 9 on the bench mix (9 made 16,000 dense rows, 11.6 MB of planes, more cache
    /// misses than the scans it saved).
    static let denseMinimum = 24
    private let storage: Storage

    /// The records and the index. Slots of the index are (key << 32 | value), 0 marking an
    /// empty slot; the value is the record offset + 1 of a short row, or ``denseFlag`` | the
    /// dense ordinal of a long one. The key travels with the value, so finding a row costs one
    /// cache miss, and a long row's ordinal (all the scorer reads of it) costs no second one in
    /// the records. At most two thirds full.
    final class Storage: @unchecked Sendable {
        // Written once in `PostingTable.init`, read-only after: safe to share between threads.
        let records: UnsafeMutableBufferPointer<UInt8>
        let index: UnsafeMutableBufferPointer<UInt64>
        /// The record offset of each dense ordinal's row.
        var denseOffsets: [Int32] = []

        init(records: [UInt8], slots: Int) {
            self.records = .allocate(capacity: records.count)
            _ = self.records.initialize(from: records)
            self.index = .allocate(capacity: slots)
            self.index.initialize(repeating: 0)
        }

        deinit {
            records.deallocate()
            index.deallocate()
        }
    }

    /// Marks a slot value that is a dense ordinal rather than an offset + 1 (offsets stay below
    /// 2³¹: a model's records are megabytes).
    private static let denseFlag: UInt64 = 0x8000_0000

    /// Collects rows in any order, then builds the index.
    struct Builder {
        private var records: [UInt8] = []
        private var keys: [UInt32] = []
        private var offsets: [UInt32] = []
        let valuesPerPosting: Int
        let keyBits: Int
        let ordinalBytes: Int
        private var denseRows = 0

        /// - Parameter denseOrdinals: rows of at least ``denseMinimum`` postings get a dense ordinal.
        init(valuesPerPosting: Int, keyBits: Int = 32, rows: Int = 0, postings: Int = 0, denseOrdinals: Bool = false) {
            precondition((1...32).contains(keyBits))
            self.valuesPerPosting = valuesPerPosting
            self.keyBits = keyBits
            self.ordinalBytes = denseOrdinals ? 4 : 0
            records.reserveCapacity(rows + postings * (1 + valuesPerPosting))
            keys.reserveCapacity(rows)
            offsets.reserveCapacity(rows)
        }

        /// Starts the row of `key` with `count` postings (1...255), to be followed by exactly
        /// `count` calls of ``posting(_:_:_:)``.
        mutating func row(_ key: UInt64, postings count: Int) {
            row(reduced: PostingTable.reduce(key, bits: keyBits), postings: count)
        }

        /// ``row(_:postings:)`` for a key already reduced to the table's ``keyBits``.
        mutating func row(reduced key: UInt32, postings count: Int) {
            precondition((1...255).contains(count))
            keys.append(key)
            offsets.append(UInt32(records.count))
            records.append(UInt8(count))
            if ordinalBytes > 0 && count >= PostingTable.denseMinimum {
                withUnsafeBytes(of: UInt32(denseRows).littleEndian) { records.append(contentsOf: $0) }
                denseRows += 1
            }
        }

        /// One posting of the current row: its language and its value (and a second value
        /// when the table has two per posting).
        @inline(__always) mutating func posting(_ language: UInt8, _ value: UInt8, _ second: UInt8 = 0) {
            postingCount += 1
            records.append(language)
            records.append(value)
            if valuesPerPosting > 1 { records.append(second) }
        }

        /// Postings added so far.
        private(set) var postingCount = 0

        func build() -> PostingTable {
            PostingTable(records: records, valuesPerPosting: valuesPerPosting, keyBits: keyBits, ordinalBytes: ordinalBytes,
                         denseRows: denseRows, keys: keys, offsets: offsets)
        }
    }

    private init(records: [UInt8], valuesPerPosting: Int, keyBits: Int, ordinalBytes: Int, denseRows: Int,
                 keys: [UInt32], offsets: [UInt32]) {
        self.valuesPerPosting = valuesPerPosting
        self.keyBits = keyBits
        self.ordinalBytes = ordinalBytes
        self.denseRowCount = denseRows
        self.rowCount = keys.count
        precondition(records.count < Int(Self.denseFlag), "posting records past 2 GiB")
        let storage = Storage(records: records, slots: max(4, keys.count * 3 / 2))
        let index = storage.index
        storage.denseOffsets.reserveCapacity(denseRows)
        for (key, offset) in zip(keys, offsets) {
            let ordinal = Self.denseOrdinal(Int32(offset), in: UnsafeBufferPointer(storage.records), ordinalBytes: ordinalBytes)
            if ordinal >= 0 { storage.denseOffsets.append(Int32(offset)) }
            var slot = Self.slot(key, count: index.count)
            while index[slot] != 0 {
                // A key folded onto an earlier row's: the earlier row keeps it.
                if UInt32(truncatingIfNeeded: index[slot] >> 32) == key { break }
                slot = slot + 1 == index.count ? 0 : slot + 1
            }
            let value = ordinal >= 0 ? Self.denseFlag | UInt64(ordinal) : UInt64(offset + 1)
            if index[slot] == 0 { index[slot] = UInt64(key) << 32 | value }
        }
        // Ordinals number the long rows in the order they were added, as the offsets are.
        precondition(storage.denseOffsets.count == denseRows)
        self.storage = storage
    }

    /// A 64-bit feature key as the table stores it.
    @inline(__always) static func fold(_ key: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: key ^ (key >> 32)) }

    /// A 64-bit feature key as a table of `bits`-bit keys stores it: the high bits of its fold.
    @inline(__always) static func reduce(_ key: UInt64, bits: Int) -> UInt32 { fold(key) >> UInt32(32 - bits) }

    /// The record offset of a 64-bit feature key's row, or -1.
    @inline(__always) func row(_ key64: UInt64) -> Int32 {
        let reference = reference(key64)
        return reference >= Self.noRow ? reference : storage.denseOffsets[Self.denseOrdinal(reference: reference)]
    }

    /// A reference to a 64-bit feature key's row, from the index alone: ``noRow`` when there is
    /// none, a short row's record offset (≥ 0), or a long row's dense ordinal `d` as `-2 - d`
    /// (read it with ``denseOrdinal(reference:)``). The scorer reads long rows from its planes
    /// by ordinal, so it never touches their records.
    @inline(__always) func reference(_ key64: UInt64) -> Int32 {
        let key = Self.reduce(key64, bits: keyBits)
        let index = UnsafeBufferPointer(storage.index)
        var slot = Self.slot(key, count: index.count)
        while true {
            let entry = index[slot]
            if entry == 0 { return Self.noRow }
            if UInt32(truncatingIfNeeded: entry >> 32) == key {
                let value = entry & 0xFFFF_FFFF
                return value & Self.denseFlag != 0 ? -2 - Int32(truncatingIfNeeded: value & ~Self.denseFlag)
                    : Int32(truncatingIfNeeded: value) - 1
            }
            slot = slot + 1 == index.count ? 0 : slot + 1
        }
    }

    /// The reference of a key without a row (``reference(_:)``).
    static let noRow: Int32 = -1

    /// The dense ordinal of a row ``reference(_:)`` returned, -1 for a short row (or none).
    @inline(__always) static func denseOrdinal(reference: Int32) -> Int {
        reference < noRow ? Int(-2 - reference) : -1
    }

    /// The postings of the row at `offset` as (language, first value, second value or 0).
    func postings(_ offset: Int32) -> [(language: UInt8, value: UInt8, second: UInt8)] {
        guard offset >= 0 else { return [] }
        let records = self.records
        let start = firstPosting(offset), width = 1 + valuesPerPosting
        return (0..<Int(records[Int(offset)])).map { p in
            let at = start + p * width
            return (records[at], records[at + 1], valuesPerPosting > 1 ? records[at + 2] : 0)
        }
    }

    /// The index in ``records`` of the first posting's language byte of the row at `offset`.
    @inline(__always) func firstPosting(_ offset: Int32) -> Int {
        Self.firstPosting(offset, in: records, ordinalBytes: ordinalBytes)
    }

    /// ``firstPosting(_:)`` on the records' memory (for the scorer's loops).
    @inline(__always) static func firstPosting(_ offset: Int32, in records: UnsafeBufferPointer<UInt8>, ordinalBytes: Int) -> Int {
        let o = Int(offset)
        return o + 1 + (Int(records[o]) >= denseMinimum ? ordinalBytes : 0)
    }

    /// The dense ordinal of the row at `offset`, -1 when it has none (a short row, or a table
    /// without ordinals).
    func denseOrdinal(_ offset: Int32) -> Int {
        Self.denseOrdinal(offset, in: records, ordinalBytes: ordinalBytes)
    }

    /// ``denseOrdinal(_:)`` on the records' memory.
    @inline(__always) static func denseOrdinal(_ offset: Int32, in records: UnsafeBufferPointer<UInt8>, ordinalBytes: Int) -> Int {
        let o = Int(offset)
        guard ordinalBytes > 0, Int(records[o]) >= denseMinimum else { return -1 }
        return Int(UInt32(littleEndian: UnsafeRawPointer(records.baseAddress! + o + 1).loadUnaligned(as: UInt32.self)))
    }

    /// The index of the language byte of `language`'s posting in the row at `offset`, -1 when
    /// the row has none, by a scan (ascending languages: it stops at the first one past it).
    @inline(__always) static func scan(_ offset: Int32, language: Int, in records: UnsafeBufferPointer<UInt8>,
                                       ordinalBytes: Int, valuesPerPosting: Int) -> Int {
        let width = 1 + valuesPerPosting
        var at = firstPosting(offset, in: records, ordinalBytes: ordinalBytes)
        for _ in 0..<Int(records[Int(offset)]) {
            let l = Int(records[at])
            if l >= language { return l == language ? at : -1 }
            at += width
        }
        return -1
    }

    /// Multiply-shift hashing onto `count` slots (Fibonacci mixing, then Lemire's range
    /// reduction, so the table need not be a power of two; FNV's low bits alone cluster).
    @inline(__always) private static func slot(_ key: UInt32, count: Int) -> Int {
        let mixed = UInt32(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32)
        return Int(truncatingIfNeeded: (UInt64(mixed) &* UInt64(count)) >> 32)
    }

    /// Bytes in memory (records and index), for the memory figure the benchmark reports.
    var byteCount: Int { storage.records.count + storage.index.count * 8 }

    static func == (a: PostingTable, b: PostingTable) -> Bool {
        a.valuesPerPosting == b.valuesPerPosting && a.keyBits == b.keyBits && a.ordinalBytes == b.ordinalBytes
            && a.records.elementsEqual(b.records) && UnsafeBufferPointer(a.storage.index).elementsEqual(b.storage.index)
    }
}
