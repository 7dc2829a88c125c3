/// Per-request options an engine may honour. Each field documents its default.
public struct TranslationOptions: Sendable, Equatable {
    /// Markup of the input. Default: `.text`.
    public var format: TextFormat
    /// Beam width for neural engines; 1 is greedy. Default: engine's own (nil).
    public var beamSize: Int?
    /// Length penalty for beam search. Default: engine's own (nil).
    public var lengthPenalty: Double?
    /// Longest output in tokens. Default: engine's own (nil).
    public var maxDecodingLength: Int?
    /// Forbid repeating n-grams of this size; 0 disables the guard. Default: engine's own (nil).
    public var noRepeatNgramSize: Int?
    /// Threads for neural translation. The neural engine sets its threads once per worker when
    /// it starts (never per request, so concurrent requests cannot race on it); `glossa
    /// translate --threads` starts its engine with this value. Default: engine's own (nil).
    public var threads: Int?
    /// Whether the engine may mark words in its output the way Apertium does: `*` before an
    /// unknown word, `#` before a word it could not generate, `@` before one its bilingual
    /// dictionary lacks. Only APy's `markUnknown` asks for marks; Google, LibreTranslate, DeepL
    /// and the SDK never show them. Default: false.
    public var markUnknownWords: Bool

    /// Options with every default.
    public init(format: TextFormat = .text, beamSize: Int? = nil, lengthPenalty: Double? = nil,
                maxDecodingLength: Int? = nil, noRepeatNgramSize: Int? = nil, threads: Int? = nil,
                markUnknownWords: Bool = false) {
        self.format = format
        self.beamSize = beamSize
        self.lengthPenalty = lengthPenalty
        self.maxDecodingLength = maxDecodingLength
        self.noRepeatNgramSize = noRepeatNgramSize
        self.threads = threads
        self.markUnknownWords = markUnknownWords
    }
}

/// A translation engine: Apertium, the neural engine, or a fake in unit tests.
///
/// Engines translate only the pairs they list, directly; routing, pivoting and batching live in
/// `TranslationService`, which is handed engines and never imports them.
public protocol TranslationEngine: Sendable {
    /// A short stable name (`apertium`, `neural`) shown in `glossa pairs` and `/health`.
    var name: String { get }

    /// The directions this engine translates directly.
    func pairs() async -> [LanguagePair]

    /// Translates each text from `pair.source` to `pair.target`, returning one output per input in
    /// the same order. Empty input gives empty output. Never drops text.
    /// - Throws: ``TranslationError``.
    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String]

    /// Stops background work (pipelines, threads). The engine is unusable afterwards.
    func shutdown() async
}

/// What an engine reports about itself for `/health` and `glossa pairs`.
public struct EngineStatus: Sendable, Equatable, Codable {
    /// The engine's name.
    public var engine: String
    /// Pairs ready to use.
    public var loaded: [String]
    /// Things found but not loaded, each with the reason.
    public var skipped: [String: String]

    /// Makes a status.
    public init(engine: String, loaded: [String], skipped: [String: String]) {
        self.engine = engine
        self.loaded = loaded
        self.skipped = skipped
    }
}

/// Engines that can say what they loaded and skipped at start-up implement this.
public protocol EngineStatusReporting: Sendable {
    /// The engine's loaded and skipped pairs.
    func status() async -> EngineStatus
}
