import Foundation

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
        var scorer = WordScorer(model: self, candidates: candidates)
        var wordCount = 0
        TextFeatures.scanWords(in: text, letterLimit: letterLimit) { word in
            scorer.add(word)
            wordCount += 1
            if prune && wordCount >= 3 {
                scorer.prune(gap: Self.pruningGap * temperature(words: wordCount))
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
/// Hot loop: per scalar of a word, one table lookup per n-gram order, the postings spread into
/// dense per-language rows, then per candidate language a walk down the orders. Everything it
/// touches per step is a flat array read through unsafe pointers (bounds are established by
/// construction: language indices are < `width`, validated when the model is read).
struct WordScorer {
    private let model: DetectorModel
    private var candidates: [Int32]
    private let width: Int
    /// Summed word log-probabilities per language.
    private(set) var scores: [Float]
    private var framed: [Unicode.Scalar] = []
    /// Row of the n-gram of each (end, order), -1 when the model lacks it: `end * maxOrder + order - 1`.
    private var rows: [Int32] = []
    /// Per order and language: log P(scalar | n-gram's context), `absent` where the language lacks it.
    private var conditional: [Float]
    /// Per order and language: log back-off weight of the context n-gram of that order (0 = none).
    private var backOff: [Float]
    private var characterLogP: [Float]
    private var wordLogF: [Float]
    private let unseen: [Float], outOfVocabulary: [Float], inVocabulary: [Float]
    private static let absent = Float.infinity
    /// Up to this many candidates, postings are looked up per language (binary search) rather than spread.
    static let searchCandidates = 8

    init(model: DetectorModel, candidates: [Int]) {
        self.model = model
        self.candidates = candidates.map(Int32.init)
        self.width = model.languages.count
        self.scores = [Float](repeating: 0, count: width)
        self.conditional = [Float](repeating: Self.absent, count: TextFeatures.maxOrder * width)
        self.backOff = [Float](repeating: 0, count: TextFeatures.maxOrder * width)
        self.characterLogP = [Float](repeating: 0, count: width)
        self.wordLogF = [Float](repeating: Self.absent, count: width)
        self.unseen = model.languages.map(\.logUnseenScalar)
        self.outOfVocabulary = model.languages.map(\.logOutOfVocabulary)
        self.inVocabulary = model.languages.map(\.logInVocabulary)
    }

    /// Adds one word's log-probability, `log((1-β)·f(w) + β·P_char(w))`, to every candidate.
    mutating func add(_ word: [Unicode.Scalar]) {
        characterLogProbabilities(word)
        let table = model.words
        var known: Range<Int> = 0..<0
        if let row = table.row(TextFeatures.wordKey(word)) {
            known = table.postings(row)
            for p in known { wordLogF[Int(table.languages[p])] = -Float(table.values[p]) / DetectorModel.wordScale }
        }
        for c in candidates {
            let l = Int(c)
            let spelled = outOfVocabulary[l] + characterLogP[l]
            let f = wordLogF[l]
            scores[l] += f == Self.absent ? spelled : Self.logAddExp(spelled, inVocabulary[l] + f)
        }
        for p in known { wordLogF[Int(table.languages[p])] = Self.absent }
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
            return true
        }
    }

    /// log(e^a + e^b) without overflow.
    @inline(__always) static func logAddExp(_ a: Float, _ b: Float) -> Float {
        a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b))
    }

    /// Fills ``characterLogP`` for the candidates: the back-off chain's log-probability of the
    /// framed word, each scalar after the opening frame predicted from up to four before it.
    private mutating func characterLogProbabilities(_ word: [Unicode.Scalar]) {
        let orders = TextFeatures.maxOrder
        TextFeatures.framed(word, into: &framed)
        let grams = model.grams
        var rows = self.rows
        self.rows = []
        rows.removeAll(keepingCapacity: true)
        rows.append(contentsOf: repeatElement(-1, count: framed.count * orders))
        // An n-gram a language has implies its prefix in that language (a prefix is at least as
        // frequent, so pruning keeps it): once a prefix is missing, longer n-grams from the same
        // start are too, and are not looked up.
        TextFeatures.forEachGram(inFramed: framed) { end, order, key, _ in
            guard order == 1 || rows[(end - 1) * orders + order - 2] >= 0 else { return }
            if let row = grams.row(key) { rows[end * orders + order - 1] = Int32(row) }
        }
        let width = self.width
        let count = framed.count
        let scale = 1 / DetectorModel.gramScale
        characterLogP.withUnsafeMutableBufferPointer { characterLogP in
        conditional.withUnsafeMutableBufferPointer { conditional in
        backOff.withUnsafeMutableBufferPointer { backOff in
        rows.withUnsafeBufferPointer { rows in
        grams.starts.withUnsafeBufferPointer { starts in
        grams.languages.withUnsafeBufferPointer { owners in
        grams.values.withUnsafeBufferPointer { values in
        candidates.withUnsafeBufferPointer { candidates in
        unseen.withUnsafeBufferPointer { unseen in
            for c in candidates { characterLogP[Int(c)] = 0 }
            // The posting of language `l` in a row, by binary search (postings are sorted by
            // language); -1 when the language lacks it.
            @inline(__always) func posting(_ row: Int, _ l: UInt8) -> Int {
                var low = Int(starts[row]), high = Int(starts[row + 1])
                while low < high {
                    let middle = (low + high) >> 1
                    if owners[middle] < l { low = middle + 1 } else { high = middle }
                }
                return low < Int(starts[row + 1]) && owners[low] == l ? low : -1
            }
            if candidates.count <= Self.searchCandidates {
                // Few candidates left (after pruning): look each one up instead of spreading
                // every posting of every order, which costs the same for 2 languages as for 60.
                for end in 1..<count {
                    let highest = min(orders, end + 1)
                    for c in candidates {
                        let l = Int(c)
                        var weight: Float = 0
                        var value = unseen[l]
                        var order = highest
                        while order >= 1 {
                            let row = Int(rows[end * orders + order - 1])
                            if row >= 0 {
                                let p = posting(row, UInt8(l))
                                if p >= 0 { value = -Float(values[2 &* p]) * scale; break }
                            }
                            if order >= 2 {
                                let context = Int(rows[(end - 1) * orders + order - 2])
                                if context >= 0 {
                                    let p = posting(context, UInt8(l))
                                    if p >= 0 { weight -= Float(values[2 &* p + 1]) * scale }
                                }
                            }
                            order -= 1
                        }
                        characterLogP[l] += weight + value
                    }
                }
                return
            }
            for end in 1..<count {
                let highest = min(orders, end + 1)
                // Spread this position's postings (and its contexts' back-off weights) into the
                // dense per-order rows; `touch` visits the same postings again to reset them.
                @inline(__always) func touch(_ write: Bool) {
                    for order in 1...highest {
                        let base = (order - 1) * width
                        let row = Int(rows[end * orders + order - 1])
                        if row >= 0 {
                            for p in Int(starts[row])..<Int(starts[row + 1]) {
                                conditional[base + Int(owners[p])] = write ? -Float(values[2 &* p]) * scale : Self.absent
                            }
                        }
                        // The context of the (order + 1)-gram: the order-gram ending one scalar earlier.
                        if order < highest {
                            let context = Int(rows[(end - 1) * orders + order - 1])
                            if context >= 0 {
                                for p in Int(starts[context])..<Int(starts[context + 1]) {
                                    backOff[base + Int(owners[p])] = write ? -Float(values[2 &* p + 1]) * scale : 0
                                }
                            }
                        }
                    }
                }
                touch(true)
                for c in candidates {
                    let l = Int(c)
                    var weight: Float = 0
                    var value = unseen[l]
                    var order = highest
                    while order >= 1 {
                        let v = conditional[(order - 1) * width + l]
                        if v != Self.absent { value = v; break }
                        // Unseen at this order: back off, paying the context's weight.
                        if order >= 2 { weight += backOff[(order - 2) * width + l] }
                        order -= 1
                    }
                    characterLogP[l] += weight + value
                }
                touch(false)
            }
        }}}}}}}}}
        self.rows = rows
    }
}
