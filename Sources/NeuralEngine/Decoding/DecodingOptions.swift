/// Decoding settings, with CTranslate2's `TranslationOptions` semantics and defaults
/// (include/ctranslate2/translation.h) so that any output can be reproduced there.
public struct DecodingOptions: Sendable, Equatable {
    /// Beam width; 1 is greedy search. Default 2 (CTranslate2's default).
    public var beamSize: Int = 2
    /// Hypothesis score ÷ length^lengthPenalty. Default 1.
    public var lengthPenalty: Float = 1
    /// Longest output in tokens (the end token included). Default 256.
    public var maxDecodingLength: Int = 256
    /// Shortest output before the end token may be chosen. Default 1.
    public var minDecodingLength: Int = 1
    /// Forbid repeating n-grams of this size; 0 disables. Default 0.
    public var noRepeatNgramSize: Int = 0
    /// Source tokens beyond this are cut (the end token is kept). Default 1024.
    public var maxInputLength: Int = 1024
    /// Compute normalised log-probability scores for greedy search too. Default true.
    public var returnScores: Bool = true

    /// The defaults.
    public init() {}

    /// Settings with the given values.
    public init(beamSize: Int, lengthPenalty: Float = 1, maxDecodingLength: Int = 256,
                noRepeatNgramSize: Int = 0, minDecodingLength: Int = 1, returnScores: Bool = true) {
        self.beamSize = beamSize
        self.lengthPenalty = lengthPenalty
        self.maxDecodingLength = maxDecodingLength
        self.noRepeatNgramSize = noRepeatNgramSize
        self.minDecodingLength = minDecodingLength
        self.returnScores = returnScores
    }
}

/// The best hypothesis for one input: target token ids (no end token) and its score.
public struct Hypothesis: Sendable, Equatable {
    /// Target vocabulary ids.
    public var ids: [Int]
    /// Sum of token log-probabilities ÷ length^lengthPenalty (0 when scores were not computed).
    public var score: Float
}
