/// Per-request options an engine may honour. Each field documents its default.
public struct TranslationOptions: Sendable, Hashable {
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
    /// Terms whose translation is fixed: each engine puts the target term where the source term
    /// was and translates the words around it (see ``Glossary``). The service gives each step of
    /// a route the glossary for that step. Default: none.
    public var glossary: Glossary?
    /// Which elements are left untranslated and which end sentences. Default: every protocol's
    /// reading (``MarkupOptions``).
    public var markup: MarkupOptions

    /// Options with every default.
    public init(format: TextFormat = .text, beamSize: Int? = nil, lengthPenalty: Double? = nil,
                maxDecodingLength: Int? = nil, noRepeatNgramSize: Int? = nil, threads: Int? = nil,
                markUnknownWords: Bool = false, glossary: Glossary? = nil, markup: MarkupOptions = MarkupOptions()) {
        self.glossary = glossary
        self.markup = markup
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

    /// The directions this engine translates directly, less those it knows do not work on this
    /// machine (see ``unavailablePairs()``). The list can shrink while the engine runs: a pair
    /// whose probe fails on first use leaves it.
    func pairs() async -> [LanguagePair]

    /// Directions the engine found installed but that do not work on this machine, each with the
    /// reason (`the mode file names …, which does not exist`). They are in no list and no route.
    /// Default: none.
    func unavailablePairs() async -> [LanguagePair: String]

    /// Checks that each of `pairs` (every installed one when nil) really translates, so that a
    /// broken pair is known, and left out of ``pairs()``, before anyone picks it. `progress` gets
    /// (checked, total) as checks finish. Default: nothing to check.
    func probe(_ pairs: [LanguagePair]?, progress: @escaping @Sendable (Int, Int) -> Void) async

    /// How many of `pairs` (every installed one when nil) ``probe(_:progress:)`` would check now:
    /// a server states it (`/glossa/v1/health`) before it listens, so that no request sees the
    /// check as over before it has begun. Default: 0.
    func pairsToProbe(_ pairs: [LanguagePair]?) async -> Int

    /// Translates each text from `pair.source` to `pair.target`, returning one output per input in
    /// the same order. Empty input gives empty output. Never drops text.
    /// - Throws: ``TranslationError``.
    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String]

    /// Stops background work (pipelines, threads). The engine is unusable afterwards.
    func shutdown() async
}

extension TranslationEngine {
    /// Engines that cannot fail per pair have none.
    public func unavailablePairs() async -> [LanguagePair: String] { [:] }

    /// Engines whose pairs need no check do nothing.
    public func probe(_ pairs: [LanguagePair]?, progress: @escaping @Sendable (Int, Int) -> Void) async {}

    /// Engines whose pairs need no check have none to check.
    public func pairsToProbe(_ pairs: [LanguagePair]?) async -> Int { 0 }
}

/// What an engine reports about itself for `/health` and `glossa pairs`.
public struct EngineStatus: Sendable, Equatable, Codable {
    /// The engine's name.
    public var engine: String
    /// Pairs ready to use.
    public var loaded: [String]
    /// Things found but not loaded, each with the reason.
    public var skipped: [String: String]
    /// Modes installed but not working on this machine, each with the reason: pairs whose probe
    /// failed (`ca-eo`), and analysis modes that cannot start (`cat-epo-morph`).
    public var unavailable: [String: String]
    /// For an engine that loads models on first use and gives them back when idle (the neural
    /// engine): the pairs whose model is in memory now. Nil for engines that do not.
    public var inMemory: [String]?

    /// Makes a status.
    public init(engine: String, loaded: [String], skipped: [String: String], unavailable: [String: String] = [:],
                inMemory: [String]? = nil) {
        self.engine = engine
        self.loaded = loaded
        self.skipped = skipped
        self.unavailable = unavailable
        self.inMemory = inMemory
    }
}

/// Engines that can say what they loaded and skipped at start-up implement this.
public protocol EngineStatusReporting: Sendable {
    /// The engine's loaded and skipped pairs.
    func status() async -> EngineStatus
}
