import Foundation

/// The detector's model, as `make detector-profiles` trains it and the build embeds it
/// (Sources/LanguageDetection/Data/detector.model; format in DetectorModel+File.swift).
/// Immutable once loaded, so one instance serves every thread.
///
/// Per language it holds
/// - a character model: a 4th-order Markov chain over the scalars of framed words, with
///   absolute-discount backoff (``grams``: per n-gram and language, the log-probability of its
///   last scalar after the others, and the log back-off weight of the n-gram used as a context);
/// - a word model over its most frequent words: a word's probability is
///   `(1-β)·f(w) + β·P_char(w)`, f its frequency in the word list and β
///   (``Language/logOutOfVocabulary``) the share of running text outside the list. The table
///   stores, per listed word and language, the *gain* `log(1 + (1-β)·f(w) / (β·P_char(w)))`,
///   which the trainer computes with this very character model: at run time a word scores
///   `log β + log P_char(w) + gain`, one addition, and a word whose gain is negligible (the
///   character model already predicts it) needs no posting at all.
///
/// The decision rule on top (temperatures per text length, prior weights, per-language logit
/// offsets, calibration of the posterior) is learned by the trainer on held-back lines and stored in ``parameters``.
struct DetectorModel: Sendable, Equatable {
    /// One language of the model.
    struct Language: Sendable, Equatable {
        /// BCP-47 code as the detector reports it ("en", "zh-Hant").
        var code: String
        /// The scripts its text is written in; a text is scored only against languages of its
        /// dominant script.
        var scripts: [WritingScript]
        /// log β: the share of running words outside the word list.
        var logOutOfVocabulary: Float
        /// Log-probability of a scalar the language's training text never had.
        var logUnseenScalar: Float
        /// Log of the language's share of the world's written text (its prior before the
        /// decision rule's weight, ``Parameters/priorWeights``).
        var logPrior: Float
    }

    /// The learned decision rule.
    struct Parameters: Sendable, Equatable {
        /// Divisor of the summed log-likelihoods before the softmax, by the text's word count:
        /// entry `i` for `i + 1` words, the last entry for that many and more. Words in a text
        /// are not independent, so raw naive-Bayes posteriors are too sharp.
        var temperatures: [Float]
        /// Weight of the languages' log priors in the softmax, by word count as the temperatures.
        var priorWeights: [Float]
        /// Probability of being right for a posterior in bin `i` of `calibration.count` equal
        /// bins of 0...1 (isotonic: never decreasing), measured on held-back lines.
        var calibration: [Float]
        /// Per language (indexed like ``DetectorModel/languages``): an offset added to its logit,
        /// learned so that close languages split the texts they share where the held-back text
        /// says the boundary lies (Galician between Spanish and Portuguese). Empty: no offsets.
        var offsets: [Float] = []
    }

    /// How the tables' bytes read as log values: a conditional or back-off byte `q` stands for
    /// `-q / scale` nats, a word gain byte for `+q / word` nats.
    struct Scales: Sendable, Equatable {
        var conditional: Float
        var backOff: Float
        var word: Float
    }

    let languages: [Language]
    var parameters: Parameters
    let scales: Scales
    /// N-gram → (language, quantized −log P(last scalar | the others), quantized −log back-off weight).
    let grams: PostingTable
    /// Word → (language, quantized gain).
    let words: PostingTable
    /// The languages of each script, in model order (derived from ``languages``).
    let languagesByScript: [WritingScript: [Int]]
    /// The tables as the scorer reads them (derived from ``grams``, ``words`` and the
    /// languages' constants).
    let scoring: ScoringTables
    /// Per language (indexed like ``languages``): the log prior.
    let logPriors: [Float]

    init(languages: [Language], parameters: Parameters, scales: Scales, grams: PostingTable, words: PostingTable) {
        self.languages = languages
        self.parameters = parameters
        self.scales = scales
        self.grams = grams
        self.words = words
        var byScript: [WritingScript: [Int]] = [:]
        for (index, language) in languages.enumerated() {
            for script in Set(language.scripts) { byScript[script, default: []].append(index) }
        }
        self.languagesByScript = byScript
        self.scoring = ScoringTables(languages: languages, scales: scales, grams: grams, words: words)
        self.logPriors = languages.map(\.logPrior)
    }

    /// Bytes in memory, for the figure the benchmark reports.
    var byteCount: Int { grams.byteCount + words.byteCount + scoring.byteCount }

    /// Models are equal when what they were built from is: everything else is derived from it.
    static func == (a: DetectorModel, b: DetectorModel) -> Bool {
        a.languages == b.languages && a.parameters == b.parameters && a.scales == b.scales && a.grams == b.grams
            && a.words == b.words
    }
}

/// A model file that cannot be read.
struct ModelFormatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "detector model: " + description }
}
