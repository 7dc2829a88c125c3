import TranslationCore

/// The one fake engine for unit tests: it "translates" by tagging each text with the target, so a
/// test sees exactly which engine steps a text took (`hello` en→es→ca is `hello>es>ca`).
///
/// Everything beyond the tag is opt-in configuration, each field with its default, so one type
/// stands in for the routing, protocol, SDK and cache tests' engines. It keeps the protocol's
/// contract (``EngineConformance`` checks it): one output per input in order, empty text stays
/// empty, an unserved pair throws `.unsupportedPair`.
///
/// Texts containing `SLOW` or `HOLD` wait at the probe's gates; texts containing `FAIL` fail as
/// an engine would (`.engineFailure`).
public struct FakeEngine: TranslationEngine {
    /// How a translated text is written.
    public enum Style: Sendable {
        /// The target appended: `hello>es`. Pivots read left to right (`hello>es>ca`).
        case tagged
        /// The target prefixed, as a protocol test reads it: `es:hello`.
        case prefixed
    }

    /// The engine's name. Default: `fake`.
    public let name: String
    /// How outputs are written. Default: `.tagged`.
    public var style: Style
    /// Whether a request that asks for Apertium's marks (`markUnknownWords`) gets `*` (before a
    /// tagged output, after a prefix), as Apertium marks an unknown word. Default: false.
    public var marksUnknownWords: Bool
    /// Whether an HTML request's outputs end in `(html)`, so a test sees the format the engine
    /// was asked for. Default: false.
    public var notesHTML: Bool
    /// Fixed outputs by exact input; other texts are tagged. Default: none.
    public var outputs: [String: String]
    /// An error every call throws before translating (an engine whose queue is full). Default: nil.
    public var failure: TranslationError?
    /// What the engine saw and its gates, shared with the test.
    public let probe: EngineProbe
    private let served: ServedPairs

    /// Makes an engine serving `served`. Pairs in `failingOnFirstUse` leave the list when first
    /// used (the call throws `.unsupportedPair`), as an Apertium pair does whose probe fails on
    /// first use.
    public init(name: String = "fake", served: [LanguagePair], style: Style = .tagged, marksUnknownWords: Bool = false,
                notesHTML: Bool = false, outputs: [String: String] = [:], failure: TranslationError? = nil,
                failingOnFirstUse: [LanguagePair] = [], probe: EngineProbe = EngineProbe()) {
        self.name = name
        self.style = style
        self.marksUnknownWords = marksUnknownWords
        self.notesHTML = notesHTML
        self.outputs = outputs
        self.failure = failure
        self.probe = probe
        self.served = ServedPairs(served, failingOnFirstUse: failingOnFirstUse)
    }

    public func pairs() async -> [LanguagePair] { served.served }

    public func unavailablePairs() async -> [LanguagePair: String] { served.unavailable }

    public func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        if let failure { throw failure }
        try served.use(pair)
        probe.receive(texts)
        var out: [String] = []
        for text in texts {
            probe.start()
            if text.contains("SLOW") { _ = await probe.slowGate.wait() }
            if text.contains("HOLD") { _ = await probe.holdGate.wait() }
            if text.contains("FAIL") { throw TranslationError(.engineFailure, "The fake engine failed on '\(text)'.") }
            out.append(render(text, pair: pair, options: options))
        }
        return out
    }

    public func shutdown() async {}

    private func render(_ text: String, pair: LanguagePair, options: TranslationOptions) -> String {
        if let fixed = outputs[text] { return fixed }
        // Why: the protocol says empty input gives empty output; a tag on nothing would be text.
        if text.isEmpty { return "" }
        let mark = marksUnknownWords && options.markUnknownWords ? "*" : ""
        let html = notesHTML && options.format == .html ? "(html)" : ""
        switch style {
        case .tagged: return "\(mark)\(text)>\(pair.target.bcp47)\(html)"
        case .prefixed: return "\(pair.target.bcp47):\(mark)\(text)\(html)"
        }
    }
}

/// Parses pair names (`en-es`) for tests; a bad name is a test bug, so it traps.
public func pairs(_ names: String...) -> [LanguagePair] {
    names.map { try! LanguagePair(parsing: $0) }
}
