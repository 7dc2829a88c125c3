extension DetectorModel {
    /// The log-likelihood of `text` under each language (indexed like ``languages``; only the
    /// `candidates` are computed, the others stay 0) and the number of words scored. Reads at
    /// most `letterLimit` letters: accuracy is saturated long before, and the bound keeps the
    /// cost of a long input flat.
    ///
    /// From the third word on, candidates whose log-likelihood trails the best by more than
    /// ``pruningGap`` times the temperature are dropped (their score becomes -∞): their
    /// posterior is below e^-12 already, and another word moves a score by a few nats, so they
    /// cannot come back; it makes a sentence cost a few languages instead of sixty.
    func logLikelihoods(of text: String, candidates: [Int], letterLimit: Int, prune: Bool = true) -> (scores: [Float], words: Int) {
        var scorer = WordScorer(model: self, candidates: candidates, arrays: ScorerScratch.take())
        defer { ScorerScratch.give(scorer.takeArrays()) }
        var wordCount = 0
        // The closure reads the temperatures, not `self`: capturing the model would copy it
        // (a retain of each of its tables) on every call.
        let temperatures = parameters.temperatures
        TextFeatures.scanWords(in: text, letterLimit: letterLimit) { word in
            scorer.add(word)
            wordCount += 1
            if prune && wordCount >= 3 {
                scorer.prune(gap: Self.pruningGap * temperatures[min(temperatures.count, wordCount) - 1])
                // One language left: the rest of the text cannot change the answer.
                if scorer.remaining == 1 { return false }
            }
            return true
        }
        return (scorer.scores, wordCount)
    }

    /// See ``logLikelihoods(of:candidates:letterLimit:prune:)``.
    static let pruningGap: Float = 12
}

/// Scores words one by one; owns the scratch arrays of one detection (one thread).
///
/// A word scores `log β + log P_char(w) + gain(w)` per candidate (see ``DetectorModel``). The
/// character model's back-off chain is evaluated bottom-up: per position, start from the
/// unigram's log-probability (or the unseen-scalar one), then per higher order add the context's
/// back-off weight and, where the language has the n-gram, replace the sum by its own
/// log-probability. That is the textbook top-down recursion (the highest order a language has,
/// plus the back-off weights of the orders above it) in a form that needs no search: each
/// n-gram's postings are visited once and written straight into one per-language row, whatever
/// the number of candidates; a long row (``ScoringTables``' dense rows) is applied as a whole,
/// one vector loop over the languages. With few candidates left (after pruning) each one's
/// values are read per language instead (a dense row's lane, or a scan of a short row), in the
/// same order of operations, so both paths give the same floats.
///
/// Everything the hot loops touch is a flat buffer read through unsafe pointers; bounds hold by
/// construction (language indices are below `width`, validated when the model is read).
struct WordScorer {
    private let tables: ScoringTables
    private var candidates: [Int32]
    private var isCandidate: [Bool]
    /// Summed word log-probabilities per language (``ScoringTables/stride`` entries; those past
    /// the language count stay 0).
    private(set) var scores: [Float]
    private var framed: [Unicode.Scalar]
    /// Row reference (``PostingTable/reference(_:)``) of the n-gram of each (end, order), ``PostingTable/noRow`` when the model lacks it: `end * maxOrder + order - 1`.
    private var rows: [Int32]
    /// Per start of an n-gram, its key so far (``lookUpGrams()``).
    private var keys: [UInt64]
    /// Per language: the current position's log-probability (bottom-up, see above).
    private var position: [Float]
    private var characterLogP: [Float]
    /// The sum of ``touch(_:_:lanes:)``'s loads (kept so that they are not optimized away).
    private var touched: UInt32 = 0
    /// Up to this many candidates, values are read per language rather than spread.
    static let searchCandidates = 8

    init(model: DetectorModel, candidates: [Int]) {
        self.init(model: model, candidates: candidates, arrays: ScorerScratch.Arrays())
    }

    /// A scorer that works in `arrays` (whatever they hold is overwritten; their capacity is
    /// reused, see ``ScorerScratch``).
    init(model: DetectorModel, candidates: [Int], arrays: consuming ScorerScratch.Arrays) {
        self.tables = model.scoring
        let stride = tables.stride
        // Filled in place, then moved out (swapped with an empty array), so that the scorer's
        // arrays are uniquely referenced and its writes never copy them.
        @inline(__always) func moved<T>(_ array: inout [T], filledWith value: T) -> [T] {
            array.removeAll(keepingCapacity: true)
            array.append(contentsOf: repeatElement(value, count: stride))
            var out: [T] = []
            swap(&out, &array)
            return out
        }
        @inline(__always) func moved<T>(_ array: inout [T]) -> [T] {
            var out: [T] = []
            swap(&out, &array)
            return out
        }
        arrays.candidates.removeAll(keepingCapacity: true)
        for c in candidates { arrays.candidates.append(Int32(c)) }
        self.candidates = moved(&arrays.candidates)
        self.isCandidate = moved(&arrays.isCandidate, filledWith: false)
        self.scores = moved(&arrays.scores, filledWith: 0)
        self.position = moved(&arrays.position, filledWith: 0)
        self.characterLogP = moved(&arrays.characterLogP, filledWith: 0)
        self.framed = moved(&arrays.framed)
        self.rows = moved(&arrays.rows)
        self.keys = moved(&arrays.keys)
        for c in candidates { isCandidate[c] = true }
    }

    /// Moves the scorer's arrays out (for the next scorer, ``ScorerScratch/give(_:)``); the
    /// scorer is empty afterwards and must not be used again.
    mutating func takeArrays() -> ScorerScratch.Arrays {
        let arrays = ScorerScratch.Arrays(candidates: candidates, isCandidate: isCandidate, scores: scores, position: position,
                                          characterLogP: characterLogP, framed: framed, rows: rows, keys: keys)
        candidates = []; isCandidate = []; scores = []; position = []; characterLogP = []; framed = []; rows = []; keys = []
        return arrays
    }

    /// Adds one word's log-probability to every candidate.
    mutating func add(_ word: [Unicode.Scalar]) {
        let tables = self.tables
        let wordRow = tables.words.row(TextFeatures.wordKey(word))
        characterLogProbabilities(word)
        for c in candidates {
            let l = Int(c)
            scores[l] += tables.outOfVocabulary[l] + characterLogP[l]
        }
        guard wordRow >= 0 else { return }
        let records = tables.wordRecords
        let start = Int(wordRow)
        for p in 0..<Int(records[start]) {
            let l = Int(records[start + 1 + 2 * p])
            if isCandidate[l] { scores[l] += tables.wordGains[Int(records[start + 2 + 2 * p])] }
        }
    }

    /// Candidates still scored.
    var remaining: Int { candidates.count }

    /// Drops the candidates whose score trails the best by more than `gap`.
    mutating func prune(gap: Float) {
        guard candidates.count > 1 else { return }
        var best = -Float.infinity
        for c in candidates { best = max(best, scores[Int(c)]) }
        let floor = best - gap
        candidates.removeAll { c in
            guard scores[Int(c)] < floor else { return false }
            scores[Int(c)] = -.infinity
            isCandidate[Int(c)] = false
            return true
        }
    }

    /// Looks up the n-grams of the framed word: order by order, so that the lookups of one
    /// order are independent of each other and their cache misses overlap. An n-gram a language
    /// has implies its prefix in that language (the trainer keeps prefixes), so once a prefix
    /// is missing, longer n-grams from the same start are not looked up. Unigrams are read
    /// by scalar value (``ScoringTables/unigramRow(_:)``), without hashing.
    private mutating func lookUpGrams() {
        let orders = TextFeatures.maxOrder
        let count = framed.count
        rows.removeAll(keepingCapacity: true)
        rows.append(contentsOf: repeatElement(-1, count: count * orders))
        keys.removeAll(keepingCapacity: true)
        keys.append(contentsOf: repeatElement(TextFeatures.gramKey([Unicode.Scalar]()), count: count))
        let tables = self.tables
        let grams = tables.grams
        framed.withUnsafeBufferPointer { framed in
        keys.withUnsafeMutableBufferPointer { keys in
        rows.withUnsafeMutableBufferPointer { rows in
            for end in 0..<count {
                keys[end] = TextFeatures.extend(keys[end], with: framed[end].value)
                rows[end * orders] = tables.unigramRow(framed[end].value)
            }
            for order in 2...orders where order <= count {
                for start in 0...(count - order) {
                    let end = start + order - 1
                    keys[start] = TextFeatures.extend(keys[start], with: framed[end].value)
                    guard rows[(end - 1) * orders + order - 2] != PostingTable.noRow else { continue }
                    rows[end * orders + order - 1] = grams.reference(keys[start])
                }
            }
        }}}
        touched &+= rows.withUnsafeBufferPointer { rows in
            candidates.withUnsafeBufferPointer { candidates in
                Self.touch(rows, tables, lanes: candidates.count > Self.searchCandidates ? nil : candidates)
            }
        }
    }

    /// Reads one word of every cache line that scoring the rows will read, before it does.
    ///
    /// Why: the scorer walks the rows position by position, each one's values feeding the
    /// next operation, so a row's cache misses (its plane lanes, or its record) would be waited
    /// for one after another. These loads depend on nothing and on each other not at all, so
    /// the processor has all of them in flight at once; the scorer then finds the lines in
    /// cache. Integer loads folded with `&+`, which the optimizer cannot drop (the sum is kept)
    /// and which adds no floating-point latency.
    /// - Parameter lanes: the candidates when the scorer reads them one by one (only their lanes
    ///   of a dense row are read then); nil when it spreads whole rows.
    @inline(__always) private static func touch(_ rows: UnsafeBufferPointer<Int32>, _ t: ScoringTables,
                                               lanes: UnsafeBufferPointer<Int32>?) -> UInt32 {
        let stride = t.stride
        let conditionalPlane = UnsafeRawPointer(t.conditionalPlane.baseAddress!)
        let backOffPlane = UnsafeRawPointer(t.backOffPlane.baseAddress!)
        let records = UnsafeRawPointer(t.gramRecords.baseAddress!)
        let lineFloats = 16
        var sum: UInt32 = 0
        for reference in rows where reference != PostingTable.noRow {
            let ordinal = PostingTable.denseOrdinal(reference: reference)
            if ordinal < 0 {
                sum &+= UInt32(records.load(fromByteOffset: Int(reference), as: UInt8.self))
            } else if let lanes {
                for l in lanes {
                    let lane = ordinal * stride + Int(l)
                    sum &+= conditionalPlane.load(fromByteOffset: 4 * lane, as: UInt32.self)
                    sum &+= backOffPlane.load(fromByteOffset: 4 * lane, as: UInt32.self)
                }
            } else {
                // Every 64 bytes from the row's start, and its last lane: a row need not start
                // on a line, so its tail may lie on one line more.
                var lane = ordinal * stride
                let last = lane + stride - 1
                while lane < last {
                    sum &+= conditionalPlane.load(fromByteOffset: 4 * lane, as: UInt32.self)
                    sum &+= backOffPlane.load(fromByteOffset: 4 * lane, as: UInt32.self)
                    lane += lineFloats
                }
                sum &+= conditionalPlane.load(fromByteOffset: 4 * last, as: UInt32.self)
                sum &+= backOffPlane.load(fromByteOffset: 4 * last, as: UInt32.self)
            }
        }
        return sum
    }

    /// Fills ``characterLogP`` (for the candidates at least): the back-off chain's
    /// log-probability of the framed word, each scalar after the opening frame predicted from
    /// up to four before it.
    private mutating func characterLogProbabilities(_ word: [Unicode.Scalar]) {
        TextFeatures.framed(word, into: &framed)
        lookUpGrams()
        let orders = TextFeatures.maxOrder
        let count = framed.count
        let spread = candidates.count > Self.searchCandidates
        let t = tables
        let records = t.gramRecords, ordinalBytes = t.grams.ordinalBytes, stride = t.stride
        let conditional = t.conditional, backOff = t.backOff, unseen = t.unseenScalar
        let conditionalPlane = t.conditionalPlane.baseAddress!, backOffPlane = t.backOffPlane.baseAddress!
        characterLogP.withUnsafeMutableBufferPointer { characterLogP in
        position.withUnsafeMutableBufferPointer { position in
        rows.withUnsafeBufferPointer { rows in
        candidates.withUnsafeBufferPointer { candidates in
            // Rows are references (``PostingTable/reference(_:)``): a long row's ordinal comes
            // from the reference itself, a short row's reference is its record offset.
            @inline(__always) func ordinal(_ reference: Int32) -> Int {
                PostingTable.denseOrdinal(reference: reference)
            }
            @inline(__always) func first(_ offset: Int32) -> Int {
                PostingTable.firstPosting(offset, in: records, ordinalBytes: ordinalBytes)
            }
            // Language `l`'s conditional in the row at `offset`, `kept` when it has none.
            @inline(__always) func conditionalOf(_ offset: Int32, _ l: Int, else kept: Float) -> Float {
                let d = ordinal(offset)
                if d >= 0 {
                    let c = conditionalPlane[d * stride + l]
                    return c <= 0 ? c : kept
                }
                let at = PostingTable.scan(offset, language: l, in: records, ordinalBytes: ordinalBytes, valuesPerPosting: 2)
                return at >= 0 ? conditional[Int(records[at + 1])] : kept
            }
            // Language `l`'s back-off weight in the row at `offset`, −0 when it has none.
            @inline(__always) func backOffOf(_ offset: Int32, _ l: Int) -> Float {
                let d = ordinal(offset)
                if d >= 0 { return backOffPlane[d * stride + l] }
                let at = PostingTable.scan(offset, language: l, in: records, ordinalBytes: ordinalBytes, valuesPerPosting: 2)
                return at >= 0 ? backOff[Int(records[at + 2])] : ScoringTables.absentBackOff
            }
            let p = position.baseAddress!
            let unseenBase = UnsafePointer(unseen.baseAddress!)
            for l in 0..<stride { characterLogP[l] = 0 }
            for end in 1..<count {
                let highest = min(orders, end + 1)
                if spread {
                    let unigram = rows[end * orders]
                    let d = ordinal(unigram)
                    if d >= 0 {
                        Lanes.select(conditionalPlane + d * stride, else: unseenBase, into: p, count: stride)
                    } else {
                        Lanes.copy(unseenBase, into: p, count: stride)
                        if unigram >= 0 {
                            let start = first(unigram)
                            for q in 0..<Int(records[Int(unigram)]) {
                                let at = start + 3 * q
                                p[Int(records[at])] = conditional[Int(records[at + 1])]
                            }
                        }
                    }
                    var order = 2
                    while order <= highest {
                        defer { order += 1 }
                        let context = rows[(end - 1) * orders + order - 2]
                        guard context != PostingTable.noRow else { continue }
                        let contextOrdinal = ordinal(context)
                        if contextOrdinal >= 0 {
                            Lanes.add(backOffPlane + contextOrdinal * stride, to: p, count: stride)
                        } else {
                            let start = first(context)
                            for q in 0..<Int(records[Int(context)]) {
                                let at = start + 3 * q
                                p[Int(records[at])] += backOff[Int(records[at + 2])]
                            }
                        }
                        let row = rows[end * orders + order - 1]
                        guard row != PostingTable.noRow else { continue }
                        let rowOrdinal = ordinal(row)
                        if rowOrdinal >= 0 {
                            Lanes.override(p, with: conditionalPlane + rowOrdinal * stride, count: stride)
                        } else {
                            let start = first(row)
                            for q in 0..<Int(records[Int(row)]) {
                                let at = start + 3 * q
                                p[Int(records[at])] = conditional[Int(records[at + 1])]
                            }
                        }
                    }
                    Lanes.add(p, to: characterLogP.baseAddress!, count: stride)
                } else {
                    for c in candidates {
                        let l = Int(c)
                        let unigram = rows[end * orders]
                        var value = unigram != PostingTable.noRow ? conditionalOf(unigram, l, else: unseen[l]) : unseen[l]
                        var order = 2
                        while order <= highest {
                            defer { order += 1 }
                            let context = rows[(end - 1) * orders + order - 2]
                            guard context != PostingTable.noRow else { continue }
                            value += backOffOf(context, l)
                            let row = rows[end * orders + order - 1]
                            guard row != PostingTable.noRow else { continue }
                            value = conditionalOf(row, l, else: value)
                        }
                        characterLogP[l] += value
                    }
                }
            }
        }}}}
    }
}
