/// What the scorer (``WordScorer``) reads in its loops, laid out for them and derived once
/// from a model's tables when the model is built: per-language rows of the long n-gram rows,
/// the unigram rows by scalar value, and the byte → log-value tables.
///
/// Dense rows: a row of ``PostingTable/denseMinimum`` or more postings (the letters and
/// common short n-grams of the Latin-script languages: about 5,200 of 622,000 rows, holding a
/// sixth of all postings; 3.6 MB of planes) also gets one Float per language in two planes, its
/// conditionals and its back-off weights. Spreading such a row over ~55 candidate languages is then one
/// loop over ``stride`` lanes that the compiler vectorizes instead of a scatter of ~55 writes,
/// and one language's value is one load instead of a search of the row. The planes hold the
/// very floats the value tables give, and the absent marks are chosen so that a lane reads
/// the same result as the sparse path (see ``absentConditional`` and ``absentBackOff``): the
/// scores are bit for bit the ones of a scatter.
///
/// One instance per model, shared by every thread (immutable after `init`); a detection retains
/// it once instead of every array it reads.
final class ScoringTables: @unchecked Sendable {
    // @unchecked: the buffers are written in `init` only and freed in `deinit`.

    /// Languages of the model.
    let width: Int
    /// Lanes of a per-language row: ``width`` rounded up to a multiple of 8 (whole vectors;
    /// the extra lanes belong to no language and are never read back).
    let stride: Int
    /// The tables themselves (their storage stays alive as long as these pointers are used).
    let grams: PostingTable, words: PostingTable
    let gramRecords: UnsafeBufferPointer<UInt8>, wordRecords: UnsafeBufferPointer<UInt8>
    /// Per dense row (``PostingTable/denseOrdinal(_:)``), ``stride`` lanes: the language's
    /// log conditional, or ``absentConditional`` where it has none.
    let conditionalPlane: UnsafeMutableBufferPointer<Float>
    /// Per dense row, ``stride`` lanes: the language's log back-off weight, or ``absentBackOff``.
    let backOffPlane: UnsafeMutableBufferPointer<Float>
    /// The unigram row (a ``PostingTable/reference(_:)``) of each scalar value below
    /// ``unigramLimit``: the very answer of `grams.reference(key)` for its key, looked up once
    /// here instead of per letter.
    let unigramRows: UnsafeMutableBufferPointer<Int32>
    /// Byte → log value: conditionals, back-off weights (both `-q / scale`), word gains (`+q / scale`).
    let conditional: UnsafeMutableBufferPointer<Float>, backOff: UnsafeMutableBufferPointer<Float>
    let wordGains: UnsafeMutableBufferPointer<Float>
    /// Per language (``stride`` lanes, 0 past ``width``): log-probability of an unseen scalar, log β.
    let unseenScalar: UnsafeMutableBufferPointer<Float>, outOfVocabulary: UnsafeMutableBufferPointer<Float>

    /// Scalars below this value find their unigram row in ``unigramRows`` (every alphabetic
    /// script up to CJK; Han, kana and Hangul syllables hash as other n-grams do).
    static let unigramLimit: UInt32 = 0x3000
    /// The key of the empty n-gram, which a unigram's key extends.
    private let emptyKey = TextFeatures.gramKey([Unicode.Scalar]())
    /// A conditional lane without a posting: positive, where every log-probability is ≤ 0, so
    /// `c <= 0 ? c : kept` keeps what the lower orders gave, as a row without the language does.
    static let absentConditional: Float = 1
    /// A back-off lane without a posting: adding −0 leaves every float as it is (−0 included),
    /// as not adding does.
    static let absentBackOff: Float = -0.0

    init(languages: [DetectorModel.Language], scales: DetectorModel.Scales, grams: PostingTable, words: PostingTable) {
        width = languages.count
        stride = (languages.count + 7) / 8 * 8
        self.grams = grams
        self.words = words
        gramRecords = grams.records
        wordRecords = words.records
        func floats(_ values: [Float]) -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: values.count)
            _ = buffer.initialize(from: values)
            return buffer
        }
        conditional = floats((0..<256).map { -Float($0) / scales.conditional })
        backOff = floats((0..<256).map { -Float($0) / scales.backOff })
        wordGains = floats((0..<256).map { Float($0) / scales.word })
        let padding = [Float](repeating: 0, count: stride - width)
        unseenScalar = floats(languages.map(\.logUnseenScalar) + padding)
        outOfVocabulary = floats(languages.map(\.logOutOfVocabulary) + padding)

        let lanes = grams.denseRowCount * stride
        conditionalPlane = .allocate(capacity: lanes)
        conditionalPlane.initialize(repeating: Self.absentConditional)
        backOffPlane = .allocate(capacity: lanes)
        backOffPlane.initialize(repeating: Self.absentBackOff)
        unigramRows = .allocate(capacity: Int(Self.unigramLimit))
        let empty = emptyKey
        for value in 0..<Self.unigramLimit {
            unigramRows[Int(value)] = grams.reference(TextFeatures.extend(empty, with: value))
        }
        fillPlanes()
    }

    /// Writes every dense row's postings into the planes (the records are walked from the
    /// start, row after row, so every long row is visited once).
    private func fillPlanes() {
        precondition(grams.valuesPerPosting == 2, "n-gram postings have a conditional and a back-off byte")
        let records = gramRecords
        var offset = 0
        while offset < records.count {
            let count = Int(records[offset])
            let ordinal = PostingTable.denseOrdinal(Int32(offset), in: records, ordinalBytes: grams.ordinalBytes)
            let first = PostingTable.firstPosting(Int32(offset), in: records, ordinalBytes: grams.ordinalBytes)
            if ordinal >= 0 {
                for p in 0..<count {
                    let at = first + 3 * p
                    let lane = ordinal * stride + Int(records[at])
                    conditionalPlane[lane] = conditional[Int(records[at + 1])]
                    backOffPlane[lane] = backOff[Int(records[at + 2])]
                }
            }
            offset = first + 3 * count
        }
    }

    deinit {
        for buffer in [conditionalPlane, backOffPlane, conditional, backOff, wordGains, unseenScalar, outOfVocabulary] {
            buffer.deallocate()
        }
        unigramRows.deallocate()
    }

    /// Bytes of the derived tables (the planes dominate), for the memory figure.
    var byteCount: Int { (conditionalPlane.count + backOffPlane.count) * 4 + unigramRows.count * 4 }

    /// The unigram row of a scalar (a ``PostingTable/reference(_:)``).
    @inline(__always) func unigramRow(_ value: UInt32) -> Int32 {
        value < Self.unigramLimit ? unigramRows[Int(value)]
            : grams.reference(TextFeatures.extend(emptyKey, with: value))
    }
}
