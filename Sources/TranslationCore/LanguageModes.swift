/// One monolingual or per-pair analysis mode of a rule-based engine: Apertium's morphological
/// analysers (`eng-morph`), generators (`spa-gener`), taggers (`eng-tagger`) and bilingual
/// dictionary look-ups (`eng-spa-autobil`), which APy serves at `/analyze`, `/generate`,
/// `/perWord` and `/calcCoverage`.
public struct LanguageModeInfo: Sendable, Hashable, Comparable {
    /// What a mode does.
    public enum Kind: String, Sendable, CaseIterable {
        /// Surface forms → every analysis (`^houses/house<n><pl>/house<vblex><pri><p3><sg>$`).
        case analyzer
        /// Lexical units → surface forms (`^casa<n><f><pl>$` → `casas`).
        case generator
        /// Surface forms → the one analysis the tagger chose.
        case tagger
        /// Lexical units → their entries in a pair's bilingual dictionary.
        case bilingual
    }

    /// What it does.
    public let kind: Kind
    /// The language (`eng`) or pair (`eng-spa`) it serves, in Apertium's codes: APy's key.
    public let key: String
    /// The mode's name (`eng-morph`, `eng-spa-morph`).
    public let name: String

    /// Makes a description.
    public init(kind: Kind, key: String, name: String) {
        self.kind = kind
        self.key = key
        self.name = name
    }

    public static func < (a: LanguageModeInfo, b: LanguageModeInfo) -> Bool { (a.kind.rawValue, a.key, a.name) < (b.kind.rawValue, b.key, b.name) }
}

/// How a mode's input is prepared.
public enum LanguageModeInput: Sendable {
    /// Plain text, deformatted and reformatted as `apertium -f txt` does.
    case text
    /// Apertium stream format as it is (`^casa<n><f><pl>$`), as `apertium -f none` takes it.
    case stream
}

/// An engine that runs analysis modes, warm, as it runs translation pipelines.
public protocol LanguageModeRunning: Sendable {
    /// Every mode it can run.
    func languageModes() async -> [LanguageModeInfo]
    /// Runs the mode named `name` over `input` and returns its output stream.
    /// - Throws: ``TranslationError`` `.notInstalled` for an unknown mode; engine failures.
    func runLanguageMode(_ name: String, input: String, as format: LanguageModeInput) async throws -> String
}

/// An engine that opens its pipelines to APy's tools: how many it keeps running, a pair's
/// pipeline stage by stage, and a pair's raw output stream (APy's `/stats`, `/pipedebug` and
/// `/translateRaw`).
public protocol PipelineReporting: Sendable {
    /// Live translation pipelines per pair, by the pair's Apertium name (`eng-spa`).
    func runningPipelines() async -> [String: Int]
    /// Runs the pipeline of `pair` over `input` stage by stage, each stage a fresh process, and
    /// returns each command with what it wrote, the deformatter first and the reformatter last.
    /// - Throws: ``TranslationError`` `.notInstalled` when no mode serves `pair`.
    func debugPipeline(_ pair: LanguagePair, input: String) async throws -> [(command: [String], output: String)]
    /// Translates `text` through a warm pipeline of `pair` and returns what the pipeline's last
    /// stage wrote, in Apertium's stream format, not reformatted: superblanks (`[<b>]`), escapes
    /// and the deformatter's sentence end (`.[]`) are kept. `deformat` false sends `text` as a
    /// stream that is already deformatted.
    /// - Throws: ``TranslationError`` `.unsupportedPair` or `.notInstalled` when no working mode
    ///   translates `pair`; engine failures.
    func translateRaw(_ text: String, pair: LanguagePair, markUnknownWords: Bool, deformat: Bool) async throws -> String
}
