import Foundation

/// How FLORES-200 dev (997 lines per language) is split. The shipped model never sees the
/// calibration or test lines; `make detect-accuracy` evaluates on the test lines.
enum Split {
    /// Lines 1–700 train the character and word models.
    static let training = 0..<700
    /// Lines 701–800 tune the decision rule and its calibration (the held-back part of the training data).
    static let calibration = 700..<800
    /// Lines 801–997: the held-out test set (`detector-model testdata`).
    static let test = 800..<997
}

/// One line of languages.tsv.
struct LanguageSource {
    var code: String
    var flores: String?
    var frequencyList: String?
    var dictionary: String?

    static func read(_ path: String) throws -> [LanguageSource] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") || line.isEmpty { return nil }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 4 else { throw TrainerError("languages.tsv: bad line \(line)") }
            func opt(_ s: String) -> String? { s == "-" ? nil : s }
            return LanguageSource(code: f[0], flores: opt(f[1]), frequencyList: opt(f[2]), dictionary: opt(f[3]))
        }
    }

    /// The language's scripts: from its FLORES stem, else Latin (the dictionary-only ones).
    var scripts: [WritingScript] {
        WritingScript.covered(bySubtag: flores.map { String($0.split(separator: "_")[1]) } ?? "Latn")
    }
}

struct TrainerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Knobs of the training, with their defaults (what `make detector-profiles` uses).
struct TrainingOptions {
    /// Absolute discount of the character model's counts.
    var discount = 0.75
    /// N-grams (order ≥ 2) kept per language, most frequent first: the size budget's main knob.
    var gramsPerLanguage = 30_000
    /// Words kept per language in the word table.
    var wordsPerLanguage = 15_000
    /// Dictionary forms (no frequencies) counted as words, per language.
    var dictionaryWords = 20_000
    /// Weight of FLORES training text in the word frequencies of a language that has a
    /// frequency list (the list is larger, but FLORES is the only data telling Bosnian from Croatian).
    var floresWordWeight = 0.3
}

/// Counts for one language, and its share of the model.
struct LanguageCounts {
    var grams: [UInt64: Double] = [:]
    /// Context n-gram → (occurrences as a context, distinct continuations).
    var contexts: [UInt64: (count: Double, continuations: Int)] = [:]
    var prefixOf: [UInt64: UInt64] = [:]
    var orderOf: [UInt64: Int] = [:]
    var unigramTotal = 0.0

    mutating func add(word: [Unicode.Scalar], weight: Double, framed: inout [Unicode.Scalar]) {
        TextFeatures.framed(word, into: &framed)
        TextFeatures.forEachGram(inFramed: framed) { end, order, key, prefix in
            if order == 1 && end == 0 { return }  // the opening frame is never predicted
            if grams[key] == nil { orderOf[key] = order; if order >= 2 { prefixOf[key] = prefix } }
            grams[key, default: 0] += weight
            if order == 1 { unigramTotal += weight } else { contexts[prefix, default: (0, 0)].count += weight }
        }
    }
}

/// Reads one language's training words: FLORES training lines (every running word), the
/// frequency list and the dictionary sample (each form once).
func trainingWords(_ source: LanguageSource, flores: String, wordLists: String, options: TrainingOptions)
    throws -> (running: [[Unicode.Scalar]], frequency: [([Unicode.Scalar], Double)], dictionary: [[Unicode.Scalar]]) {
    var running: [[Unicode.Scalar]] = []
    if let stem = source.flores {
        let lines = try String(contentsOfFile: "\(flores)/\(stem).dev", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines[Split.training] { TextFeatures.forEachWord(in: String(line)) { running.append($0) } }
    }
    var frequency: [([Unicode.Scalar], Double)] = []
    if source.frequencyList != nil {
        let path = "\(wordLists)/\(source.code).freq.tsv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TrainerError("missing \(path): run export-wordlists.py") }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let f = Double(parts[1]) else { continue }
            // A list entry may read as several words ("l'eau"); each counts with the entry's frequency.
            TextFeatures.forEachWord(in: String(parts[0])) { frequency.append(($0, f)) }
        }
    }
    var dictionary: [[Unicode.Scalar]] = []
    if source.dictionary != nil {
        let path = "\(wordLists)/\(source.code).dict.txt"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TrainerError("missing \(path): run export-wordlists.py") }
        var seen = Set<[Unicode.Scalar]>()
        for line in text.split(separator: "\n") {
            TextFeatures.forEachWord(in: String(line)) { word in if seen.insert(word).inserted { dictionary.append(word) } }
        }
    }
    return (running, frequency, dictionary)
}

/// What one language contributes to the model's tables.
struct LanguagePart {
    var language: DetectorModel.Language
    /// N-gram key → (quantized −log P(last | rest), quantized −log back-off weight).
    var grams: [UInt64: (UInt8, UInt8)]
    /// Word key → quantized −log frequency.
    var words: [UInt64: UInt8]
}

func quantize(_ logValue: Double, scale: Float) -> UInt8 {
    UInt8(max(0, min(255, (-logValue * Double(scale)).rounded())))
}

func trainLanguage(_ source: LanguageSource, flores: String, wordLists: String, options: TrainingOptions) throws -> LanguagePart {
    let (running, frequency, dictionary) = try trainingWords(source, flores: flores, wordLists: wordLists, options: options)
    // Character model: running FLORES words, plus every listed form once (the character model
    // spells out the words the word table lacks, which are rarer forms, so types, not tokens).
    var counts = LanguageCounts()
    var framed: [Unicode.Scalar] = []
    for word in running { counts.add(word: word, weight: 1, framed: &framed) }
    for (word, _) in frequency { counts.add(word: word, weight: 1, framed: &framed) }
    // A dictionary's forms weigh as much together as the running text, at most: expanded affix
    // rules produce rare forms (Galician verbs with stacked clitics) that real text hardly has.
    let dictionaryWeight = running.isEmpty ? 1 : min(1, Double(running.count) / Double(max(1, dictionary.count)))
    for word in dictionary { counts.add(word: word, weight: dictionaryWeight, framed: &framed) }

    // Keep the most frequent n-grams of order ≥ 2 (ties by key, for reproducibility); all unigrams.
    let higher = counts.grams.filter { counts.orderOf[$0.key]! >= 2 && $0.value >= 2 }
        .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .prefix(options.gramsPerLanguage)
    var kept: [UInt64: Double] = Dictionary(uniqueKeysWithValues: higher.map { ($0.key, $0.value) })
    for (key, count) in counts.grams where counts.orderOf[key] == 1 { kept[key] = count }
    // Context keys must be kept for their back-off weights: a kept n-gram's prefix is kept too
    // when it is frequent enough; the opening frame `_` is a unigram kept above.
    var leftover: [UInt64: Double] = [:]
    for (key, count) in kept where counts.orderOf[key]! >= 2 {
        let prefix = counts.prefixOf[key]!
        leftover[prefix, default: 0] += (count - options.discount) / counts.contexts[prefix]!.count
    }
    let distinctScalars = Double(counts.grams.filter { counts.orderOf[$0.key] == 1 }.count)
    let unseenMass = distinctScalars / (counts.unigramTotal + distinctScalars)
    var grams: [UInt64: (UInt8, UInt8)] = [:]
    for (key, count) in kept {
        let order = counts.orderOf[key]!
        let conditional = order == 1
            ? count / (counts.unigramTotal + distinctScalars)
            : (count - options.discount) / counts.contexts[counts.prefixOf[key]!]!.count
        let backOff = max(1e-6, 1 - (leftover[key] ?? 0))
        grams[key] = (quantize(log(conditional), scale: DetectorModel.gramScale),
                      leftover[key] == nil ? 0 : quantize(log(backOff), scale: DetectorModel.gramScale))
    }
    // The opening frame as a context: its back-off weight must be stored even though it is
    // never predicted; it has the same key as the closing frame's unigram, kept above.

    // Word model.
    var floresCounts: [[Unicode.Scalar]: Double] = [:]
    for word in running { floresCounts[word, default: 0] += 1 }
    let floresTotal = Double(running.count)
    let hapaxes = Double(floresCounts.values.filter { $0 == 1 }.count)
    var f: [[Unicode.Scalar]: Double] = [:]
    var outOfVocabulary: Double
    if !frequency.isEmpty {
        let listed = frequency.reduce(0) { $0 + $1.1 }
        for (word, value) in frequency { f[word, default: 0] += (1 - options.floresWordWeight) * value / listed }
        for (word, count) in floresCounts { f[word, default: 0] += options.floresWordWeight * count / floresTotal }
        outOfVocabulary = min(0.5, max(0.05, 1 - listed))
    } else {
        for (word, count) in floresCounts { f[word] = count / floresTotal }
        outOfVocabulary = floresTotal > 0 ? min(0.6, max(0.05, hapaxes / floresTotal)) : 0.9
        if !dictionary.isEmpty {
            // Dictionary forms have no frequency: together they get a fifth of the mass (all of
            // it without FLORES text), shared equally, on top of what FLORES gives them.
            let listed = dictionary.prefix(options.dictionaryWords)
            let mass = floresTotal > 0 ? 0.2 : 1.0
            f = f.mapValues { $0 * (1 - mass) }
            for word in listed { f[word, default: 0] += mass / Double(listed.count) }
        }
    }
    var words: [UInt64: UInt8] = [:]
    for (word, value) in f.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key) })
        .prefix(options.wordsPerLanguage) {
        words[TextFeatures.wordKey(word)] = quantize(log(value), scale: DetectorModel.wordScale)
    }
    let language = DetectorModel.Language(
        code: source.code, scripts: source.scripts,
        logOutOfVocabulary: Float(log(outOfVocabulary)), logInVocabulary: Float(log(1 - outOfVocabulary)),
        logUnseenScalar: Float(log(unseenMass / 1000)))
    return LanguagePart(language: language, grams: grams, words: words)
}

/// Merges per-language parts into one posting table.
func table<V>(_ parts: [[UInt64: V]], width: Int, values: (V) -> [UInt8]) -> PostingTable {
    var rows: [UInt32: [(UInt8, [UInt8])]] = [:]
    for (language, part) in parts.enumerated() {
        for (key, value) in part { rows[PostingTable.fold(key), default: []].append((UInt8(language), values(value))) }
    }
    let keys = rows.keys.sorted()
    var starts: [UInt32] = [0], owners: [UInt8] = [], bytes: [UInt8] = []
    for key in keys {
        // Two keys folding to one (rare) keep the first language's posting only once.
        var seen = Set<UInt8>()
        for (language, value) in rows[key]! where seen.insert(language).inserted {
            owners.append(language)
            bytes.append(contentsOf: value)
        }
        starts.append(UInt32(owners.count))
    }
    return PostingTable(keys: keys, starts: starts, languages: owners, values: bytes, valuesPerPosting: width)
}
