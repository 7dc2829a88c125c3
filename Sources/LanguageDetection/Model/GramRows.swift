import Foundation

/// The character model's n-gram rows in the model file's order (a trie, depth first), each
/// posting with its quantized conditional and a second byte, and how back-off weights are
/// predicted from them.
///
/// With absolute discounting, the continuations of a context that a language keeps take
/// `Σ P(x | context)` of the context's probability mass and the rest, `1 − Σ`, is its back-off
/// weight. Summed from the *quantized* conditionals that is a good prediction of the weight,
/// except where one continuation takes nearly all the mass ("q" → "u": a conditional of 0.99
/// quantizes to 1 and the sum says nothing is left). So the file stores each weight as its
/// difference from the prediction (``derivedBackOffs(scales:)``): zero for almost every
/// posting, which compresses to next to nothing, and the weight read back is exactly the one
/// the trainer computed.
struct GramRows {
    private var keys: [UInt64] = []
    private var orders: [UInt8] = []
    /// Row `r`'s postings are `starts[r]..<starts[r + 1]`.
    private var starts: [UInt32] = [0]
    private var languages: [UInt8] = []
    private var conditionals: [UInt8] = []
    /// Per posting: its back-off byte, or its difference from the derived one (the file's form).
    private(set) var seconds: [UInt8] = []

    init(rows: Int, postings: Int = 0) {
        keys.reserveCapacity(rows)
        orders.reserveCapacity(rows)
        starts.reserveCapacity(rows + 1)
        languages.reserveCapacity(postings)
        conditionals.reserveCapacity(postings)
        seconds.reserveCapacity(postings)
    }

    /// Starts the row of the n-gram with key `key` and `order` scalars; its postings follow.
    mutating func row(_ key: UInt64, order: Int) {
        keys.append(key)
        orders.append(UInt8(clamping: order))
        starts.append(starts[starts.count - 1])
    }

    /// One posting of the current row (languages ascending).
    mutating func posting(_ language: UInt8, _ conditional: UInt8, _ second: UInt8) {
        languages.append(language)
        conditionals.append(conditional)
        seconds.append(second)
        starts[starts.count - 1] += 1
    }

    /// Postings added so far.
    var postingCount: Int { languages.count }

    /// Per posting, the predicted back-off byte: `-log(1 − Σ children's P) · scales.backOff`,
    /// 0 for a posting that no longer n-gram of its language extends.
    /// - Throws: ``ModelFormatError`` when the rows are not a trie of per-language prefixes:
    ///   a row deeper than its predecessor allows, a row without postings, or a posting whose
    ///   language its prefix lacks.
    func derivedBackOffs(scales: DetectorModel.Scales) throws -> [UInt8] {
        let maxOrder = TextFeatures.maxOrder
        // Unquantized step of the conditionals: exp of each byte's log value.
        let probability = (0..<256).map { exp(-Double($0) / Double(scales.conditional)) }
        var mass = [Double](repeating: 0, count: languages.count)
        // path[d]: the latest row of order d, which is the prefix of the next row of order d + 1.
        var path = [Int](repeating: -1, count: maxOrder + 1)
        var previousOrder = 0
        for row in keys.indices {
            let order = Int(orders[row])
            let range = Int(starts[row])..<Int(starts[row + 1])
            guard (1...maxOrder).contains(order), order <= previousOrder + 1, (1...255).contains(range.count) else {
                throw ModelFormatError("n-gram rows are not a trie")
            }
            previousOrder = order
            path[order] = row
            guard order >= 2 else { continue }
            let parent = path[order - 1]
            let siblings = Int(starts[parent])..<Int(starts[parent + 1])
            for p in range {
                guard let q = Self.search(languages, siblings, for: languages[p]) else {
                    throw ModelFormatError("n-gram without its prefix")
                }
                mass[q] += probability[Int(conditionals[p])]
            }
        }
        return mass.map { m in
            // Rounding of the conditionals can push the sum to 1 or past it.
            m == 0 ? 0 : UInt8(clamping: Int((-log(max(1e-6, 1 - m)) * Double(scales.backOff)).rounded()))
        }
    }

    /// The run-time table, two values per posting: the conditional and `backOffs[posting]`,
    /// with dense ordinals on its long rows (the scorer keeps per-language arrays of those,
    /// ``ScoringTables``).
    func table(backOffs: [UInt8]) -> PostingTable {
        precondition(backOffs.count == languages.count)
        var builder = PostingTable.Builder(valuesPerPosting: 2, rows: keys.count, postings: languages.count, denseOrdinals: true)
        for row in keys.indices {
            builder.row(keys[row], postings: Int(starts[row + 1] - starts[row]))
            for p in Int(starts[row])..<Int(starts[row + 1]) { builder.posting(languages[p], conditionals[p], backOffs[p]) }
        }
        return builder.build()
    }

    /// The index of `language` among the ascending `languages[range]`, or nil.
    private static func search(_ languages: [UInt8], _ range: Range<Int>, for language: UInt8) -> Int? {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = (low + high) >> 1
            if languages[middle] < language { low = middle + 1 } else { high = middle }
        }
        return low < range.upperBound && languages[low] == language ? low : nil
    }
}
