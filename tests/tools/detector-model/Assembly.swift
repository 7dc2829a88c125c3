import Foundation

/// Merges the languages' parts into the model file's content: the n-gram trie, then the word
/// table, whose gains need the assembled character model (see ``DetectorModel``). The decision
/// rule is learned afterwards (Calibration.swift) and starts here as a placeholder.
func assemble(_ parts: [LanguagePart], options: TrainingOptions) -> DetectorModel.Content {
    var rows: [UInt64: (scalars: [Unicode.Scalar], postings: [DetectorModel.Content.GramPosting])] = [:]
    for (language, part) in parts.enumerated() {
        for (key, gram) in part.grams {
            rows[key, default: (gram.scalars, [])].postings.append(.init(language: UInt8(language), conditional: gram.conditional, backOff: gram.backOff))
        }
    }
    // Lexicographic order of the scalars: each prefix comes before its extensions (a trie, depth first).
    let grams = rows.values.map { (scalars: $0.scalars, postings: $0.postings.sorted { $0.language < $1.language }) }
        .sorted { $0.scalars.lexicographicallyPrecedes($1.scalars) { $0.value < $1.value } }
    var content = DetectorModel.Content(
        languages: parts.map(\.language),
        parameters: .init(temperatures: [1], priorWeights: [0], calibration: (0..<20).map { (Float($0) + 0.5) / 20 }),
        scales: options.scales, grams: grams, words: [])
    content.words = wordRows(parts, characterModel: DetectorModel(content: content), options: options)
    content.wordKeyBits = options.wordKeyBits
    return content
}

/// The word table: per language and listed word, the gain `log(1 + (1-β)·f / (β·P_char))`
/// quantized, with P_char from `characterModel` (the assembled n-grams, no words yet), so that
/// the run-time sum `log β + log P_char + gain` is the word model's log-probability. Postings
/// below ``TrainingOptions/minimumGain`` are left out: they would not move a score.
func wordRows(_ parts: [LanguagePart], characterModel: DetectorModel, options: TrainingOptions)
    -> [(key: UInt32, postings: [DetectorModel.Content.WordPosting])] {
    // Word → its (language, frequency) listings, every language's words in its frequency order.
    var listings: [[Unicode.Scalar]: [(language: Int, frequency: Double)]] = [:]
    var order: [[Unicode.Scalar]] = []
    for (language, part) in parts.enumerated() {
        for (word, frequency) in part.words {
            if listings[word] == nil { order.append(word) }
            listings[word, default: []].append((language, frequency))
        }
    }
    var byKey: [UInt32: [DetectorModel.Content.WordPosting]] = [:]
    for word in order {
        let listed = listings[word]!
        // With no word table, a scorer's sum is log β + log P_char(w).
        var scorer = WordScorer(model: characterModel, candidates: listed.map(\.language))
        scorer.add(word)
        let key = PostingTable.reduce(TextFeatures.wordKey(word), bits: options.wordKeyBits)
        for (language, frequency) in listed {
            let beta = Double(exp(parts[language].language.logOutOfVocabulary))
            let ratio = log((1 - beta) * frequency) - Double(scorer.scores[language])
            let gain = ratio > 30 ? ratio : log1p(exp(ratio))
            let q = UInt8(max(0, min(255, (gain * Double(options.scales.word)).rounded())))
            guard Int(q) >= options.minimumGain else { continue }
            // Two words folding onto one key (rare): the first one listed (more frequent, or an
            // earlier language) keeps the language's posting.
            if byKey[key]?.contains(where: { $0.language == UInt8(language) }) == true { continue }
            byKey[key, default: []].append(.init(language: UInt8(language), gain: q))
        }
    }
    return byKey.keys.sorted().map { key in (key, byKey[key]!.sorted { $0.language < $1.language }) }
}
