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

    /// Where held-back tuning text of languages without FLORES text lies (`<code>.tuning.txt`,
    /// written by export-wordlists.py beside the word lists: Latin's Vulgate verses); nil: none.
    nonisolated(unsafe) static var tuningDirectory: String?

    /// The language's held-back tuning text, for a language without FLORES text that has one.
    var tuningText: String? {
        guard flores == nil, let directory = Self.tuningDirectory else { return nil }
        let path = "\(directory)/\(code).tuning.txt"
        return FileManager.default.fileExists(atPath: path) ? path : nil
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

/// Knobs of the training, with their defaults (what `make detector-profiles` uses); `train`
/// takes each as `--name value` for experiments (see main.swift).
struct TrainingOptions {
    /// Absolute discount of the character model's counts.
    var discount = 0.75
    /// N-grams (order ≥ 2) kept per language, most frequent first: the size budget's main knob
    /// (30,000 made a 6.8 MB file; 15,000 costs 0.4 points of single-word accuracy on the
    /// tuning lines, none on sentences; 14,800 keeps the file under 5 MB with the translated
    /// word lists, at the same accuracy on the tuning lines).
    var gramsPerLanguage = 14_800
    /// Words considered per language for the word table, most frequent first (with the n-grams,
    /// the size budget's knob). 11,000 since the UI vocabulary and Latin came in (2026-12-07):
    /// 12,000 made a 5.19 MB file; on the tuning lines 11,000 costs 0.2 points of single words
    /// and 0.1 of pairs (mean over languages), 10,500 (4.89 MB) a little more.
    var wordsPerLanguage = 11_000
    /// Word postings whose quantized gain is below this are dropped: the character model
    /// already predicts the word about as well (see ``DetectorModel``).
    var minimumGain = 1
    /// Dictionary forms (no frequencies) counted as words, per language.
    var dictionaryWords = 20_000
    /// Weight of FLORES training text in the word frequencies of a language that has a
    /// frequency list (the list is larger, but FLORES is the only data telling Bosnian from Croatian).
    var floresWordWeight = 0.3
    /// Weight of the UI vocabulary (words of other Debian packages' gettext catalogues than the
    /// gettext test set's, `<code>.ui.tsv`) in a language's word frequencies: labels, buttons and
    /// messages ("Anuluj", "Annulla") that running text and word-frequency lists hardly have.
    var uiWordWeight = 0.15
    /// A UI vocabulary of fewer running words than this is left out: a handful of strings (Maori's
    /// 4 words, Yoruba's 87) would give each of its words a large share of the language's mass.
    var uiMinimumWords = 5_000.0
    /// Quantization: bytes per nat of the conditional log-probabilities, of the back-off
    /// weights and of the word gains (see ``DetectorModel/Scales``).
    /// (8 per nat: 0.18 MB smaller than 12, the same accuracy on the tuning lines.)
    var scales = DetectorModel.Scales(conditional: 8, backOff: 8, word: 8)
    /// Bits of a word table key (see ``PostingTable``): 26 would save 0.6 MB, but its collisions
    /// give common words the gains of other languages' words.
    var wordKeyBits = 32

    /// Reads `--discount`, `--grams`, `--words`, `--minimum-gain`, `--conditional-scale`,
    /// `--backoff-scale`, `--word-scale` from the arguments.
    init(arguments: [String] = []) throws {
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard let text = iterator.next(), let value = Double(text) else { throw TrainerError("\(name) needs a number") }
            switch name {
            case "--discount": discount = value
            case "--grams": gramsPerLanguage = Int(value)
            case "--words": wordsPerLanguage = Int(value)
            case "--minimum-gain": minimumGain = Int(value)
            case "--conditional-scale": scales.conditional = Float(value)
            case "--backoff-scale": scales.backOff = Float(value)
            case "--word-scale": scales.word = Float(value)
            case "--word-key-bits": wordKeyBits = Int(value)
            case "--ui-weight": uiWordWeight = value
            case "--ui-minimum-words": uiMinimumWords = value
            default: throw TrainerError("unknown option \(name)")
            }
        }
    }
}

/// Counts for one language.
struct LanguageCounts {
    var grams: [UInt64: Double] = [:]
    /// Context n-gram → (occurrences as a context, distinct continuations).
    var contexts: [UInt64: (count: Double, continuations: Int)] = [:]
    var prefixOf: [UInt64: UInt64] = [:]
    var orderOf: [UInt64: Int] = [:]
    /// The last scalar of each n-gram (with ``prefixOf``, its spelling).
    var lastOf: [UInt64: Unicode.Scalar] = [:]
    var unigramTotal = 0.0

    mutating func add(word: [Unicode.Scalar], weight: Double, framed: inout [Unicode.Scalar]) {
        TextFeatures.framed(word, into: &framed)
        TextFeatures.forEachGram(inFramed: framed) { end, order, key, prefix in
            if order == 1 && end == 0 { return }  // the opening frame is never predicted
            if grams[key] == nil {
                orderOf[key] = order
                lastOf[key] = framed[end]
                if order >= 2 { prefixOf[key] = prefix }
            }
            grams[key, default: 0] += weight
            if order == 1 { unigramTotal += weight } else { contexts[prefix, default: (0, 0)].count += weight }
        }
    }

    /// The scalars of a counted n-gram.
    func scalars(of key: UInt64) -> [Unicode.Scalar] {
        (orderOf[key]! >= 2 ? scalars(of: prefixOf[key]!) : []) + [lastOf[key]!]
    }
}

/// Reads one language's training words: FLORES training lines (every running word), the
/// frequency list, the dictionary sample (each form once) and the UI vocabulary (with counts).
func trainingWords(_ source: LanguageSource, flores: String, wordLists: String, options: TrainingOptions)
    throws -> (running: [[Unicode.Scalar]], frequency: [([Unicode.Scalar], Double)], dictionary: [[Unicode.Scalar]],
               ui: [([Unicode.Scalar], Double)]) {
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
    // The UI vocabulary is optional (a language no training catalogue has gets none, Latin by choice).
    var ui: [([Unicode.Scalar], Double)] = []
    if let text = try? String(contentsOfFile: "\(wordLists)/\(source.code).ui.tsv", encoding: .utf8) {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let count = Double(parts[1]) else { continue }
            TextFeatures.forEachWord(in: String(parts[0])) { ui.append(($0, count)) }
        }
    }
    return (running, frequency, dictionary, ui)
}

/// What one language contributes to the model's tables.
struct LanguagePart {
    var language: DetectorModel.Language
    /// N-gram key → (its scalars, quantized −log P(last | rest), quantized −log back-off weight).
    var grams: [UInt64: (scalars: [Unicode.Scalar], conditional: UInt8, backOff: UInt8)]
    /// Word → frequency within the language's word list (the gain is computed once the
    /// character model is assembled).
    var words: [(word: [Unicode.Scalar], frequency: Double)]
}

func quantize(_ logValue: Double, scale: Float) -> UInt8 {
    UInt8(max(0, min(255, (-logValue * Double(scale)).rounded())))
}

func trainLanguage(_ source: LanguageSource, flores: String, wordLists: String, options: TrainingOptions) throws -> LanguagePart {
    let (running, frequency, dictionary, ui) = try trainingWords(source, flores: flores, wordLists: wordLists, options: options)
    // A UI vocabulary too small to trust is left out of both models (see uiMinimumWords).
    let uiTotal = ui.reduce(0) { $0 + $1.1 }
    let usesUI = uiTotal >= options.uiMinimumWords
    // Character model: running FLORES words, plus every listed form once (the character model
    // spells out the words the word table lacks, which are rarer forms, so types, not tokens).
    var counts = LanguageCounts()
    var framed: [Unicode.Scalar] = []
    for word in running { counts.add(word: word, weight: 1, framed: &framed) }
    for (word, _) in frequency { counts.add(word: word, weight: 1, framed: &framed) }
    if usesUI {
        for (word, _) in ui { counts.add(word: word, weight: 1, framed: &framed) }
    }
    // A dictionary's forms weigh as much together as the running text, at most: expanded affix
    // rules produce rare forms (Galician verbs with stacked clitics) that real text hardly has.
    let dictionaryWeight = running.isEmpty ? 1 : min(1, Double(running.count) / Double(max(1, dictionary.count)))
    for word in dictionary { counts.add(word: word, weight: dictionaryWeight, framed: &framed) }

    // Keep the most frequent n-grams of order ≥ 2 (ties by key, for reproducibility); all unigrams.
    let higher = counts.grams.filter { counts.orderOf[$0.key]! >= 2 && $0.value >= 2 }
        .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .prefix(options.gramsPerLanguage)
    var kept: [UInt64: Double] = [:]
    for (key, count) in counts.grams where counts.orderOf[key] == 1 { kept[key] = count }
    // Every kept n-gram's prefix is kept (the scorer stops at a missing prefix, and the file
    // stores the n-grams as a trie): a prefix is at least as frequent, so this only settles
    // ties at the cut, order by order.
    for order in 2...TextFeatures.maxOrder {
        for (key, count) in higher where counts.orderOf[key] == order && kept[counts.prefixOf[key]!] != nil { kept[key] = count }
    }
    // Sums in key order: the same inputs give the same bytes.
    let keys = kept.keys.sorted()
    // The probability mass each context leaves to back-off: context keys must be kept for
    // their back-off weights, and they are (prefixes are kept).
    var leftover: [UInt64: Double] = [:]
    for key in keys where counts.orderOf[key]! >= 2 {
        let prefix = counts.prefixOf[key]!
        leftover[prefix, default: 0] += (kept[key]! - options.discount) / counts.contexts[prefix]!.count
    }
    let distinctScalars = Double(counts.grams.filter { counts.orderOf[$0.key] == 1 }.count)
    let unseenMass = distinctScalars / (counts.unigramTotal + distinctScalars)
    var grams: [UInt64: (scalars: [Unicode.Scalar], conditional: UInt8, backOff: UInt8)] = [:]
    for key in keys {
        let count = kept[key]!
        let conditional = counts.orderOf[key]! == 1
            ? count / (counts.unigramTotal + distinctScalars)
            : (count - options.discount) / counts.contexts[counts.prefixOf[key]!]!.count
        let backOff = max(1e-6, 1 - (leftover[key] ?? 0))
        grams[key] = (counts.scalars(of: key), quantize(log(conditional), scale: options.scales.conditional),
                      leftover[key] == nil ? 0 : quantize(log(backOff), scale: options.scales.backOff))
    }

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
    if usesUI && options.uiWordWeight > 0 {
        // The UI vocabulary takes its share of the word mass; the rest is scaled down alike.
        f = f.mapValues { $0 * (1 - options.uiWordWeight) }
        for (word, count) in ui { f[word, default: 0] += options.uiWordWeight * count / uiTotal }
    }
    let words = f.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key) { $0.value < $1.value } }
        .prefix(options.wordsPerLanguage).map { (word: $0.key, frequency: $0.value) }
    let language = DetectorModel.Language(
        code: source.code, scripts: source.scripts, logOutOfVocabulary: Float(log(outOfVocabulary)),
        logUnseenScalar: Float(log(unseenMass / 1000)), logPrior: 0)
    return LanguagePart(language: language, grams: grams, words: words)
}
