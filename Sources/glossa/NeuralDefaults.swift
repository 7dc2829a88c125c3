import Foundation
import NeuralEngine

/// The neural engine's decoding defaults as `glossa translate --help` states them, with the
/// CTranslate2 call that decodes the same way. Read from the engine's own configuration, so the
/// help cannot drift from what the engine does (`tests/test_neural_reference.py` checks the
/// output against that call).
enum NeuralDefaults {
    /// What a request that sets no option decodes with.
    static let options = NeuralEngine.Configuration().defaults
    /// CTranslate2's own defaults, for comparison (``DecodingOptions``' field defaults).
    static let ctranslate2 = DecodingOptions()

    /// The default length penalty as the help writes it (`1`, not `1.0`).
    static var lengthPenalty: String { number(options.lengthPenalty) }

    /// `translate_batch` with Glossa's defaults spelled out (`indent`: of the second line).
    static func ctranslate2Call(indent: String = "") -> String {
        "translator.translate_batch(tokens, beam_size=\(options.beamSize), length_penalty=\(lengthPenalty),\n"
            + indent + "                           max_decoding_length=\(options.maxDecodingLength), "
            + "no_repeat_ngram_size=\(options.noRepeatNgramSize))"
    }

    /// The `--help` paragraph.
    static var helpText: String {
        """
        Neural pairs decode with beam \(options.beamSize), length penalty \(lengthPenalty), at most \(options.maxDecodingLength) tokens and no
        repeated \(options.noRepeatNgramSize)-grams unless told otherwise: the same tokens as CTranslate2's
          \(ctranslate2Call(indent: "  "))
        CTranslate2's own defaults are beam_size=\(ctranslate2.beamSize) and no_repeat_ngram_size=\(ctranslate2.noRepeatNgramSize): to compare
        with a bare translate_batch(tokens), give --beam-size \(ctranslate2.beamSize) --no-repeat-ngram-size \(ctranslate2.noRepeatNgramSize).
        """
    }

    private static func number(_ value: Float) -> String { String(format: "%g", Double(value)) }
}
