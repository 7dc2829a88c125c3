import Testing
import TranslationCore

/// The contract of ``TranslationEngine`` as its documentation states it, checked on any engine:
/// run each check from a test of the engine's own target, with a pair the engine serves.
///
/// What is checked, and the sentence of the documentation it comes from:
/// - ``faithfulness()``: "one output per input in the same order. Empty input gives empty
///   output. Never drops text."
/// - ``cancellation()``: ``TranslationError/Kind/cancelled`` ("the caller cancelled"): a
///   cancelled call ends, with `CancellationError`, that error, or a faithful answer.
/// - ``markup()``: ``TextFormat/html`` ("tags and entities are kept").
/// - ``errors()``: "Throws: ``TranslationError``" (for a pair the engine does not list).
///
/// Failures are recorded as Swift Testing issues at the caller's line, so a known engine defect
/// can be wrapped in `withKnownIssue` check by check.
public struct EngineConformance: Sendable {
    /// The engine under test.
    public let engine: any TranslationEngine
    /// A pair the engine lists in ``TranslationEngine/pairs()``.
    public let pair: LanguagePair
    /// Sentences in the pair's source language, each translated on its own and in one batch.
    /// Default: short English sentences.
    public var sentences: [String]
    /// HTML whose tags must all come back, in order. Default: a paragraph with nested inline tags.
    public var html: [String]
    /// A pair the engine does not serve. Default: Zulu → Xhosa.
    public var unservedPair: LanguagePair
    /// How many copies of ``sentences`` the cancelled call is given: enough that translating
    /// them all would take longer than ``cancellationLimit``. Default 400.
    public var cancellationCopies: Int
    /// Longest time a call may take to end once cancelled. Default 10 s.
    public var cancellationLimit: Duration

    /// Checks for `engine` over `pair`, with every default.
    public init(engine: any TranslationEngine, pair: LanguagePair) {
        self.engine = engine
        self.pair = pair
        sentences = ["The house is red.", "I have three dogs and a cat.", "Where is the station?",
                     "She reads a book every week.", "Good morning."]
        html = [#"<p class="intro">The <b>red</b> house is <i>big</i>.</p>"#,
                #"<ul><li>One dog</li><li>Two <a href="/cats">cats</a></li></ul>"#]
        unservedPair = LanguagePair(source: "zu", target: "xh")
        cancellationCopies = 400
        cancellationLimit = .seconds(10)
    }

    /// Every check in turn.
    public func all(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await faithfulness(sourceLocation: sourceLocation)
        try await cancellation(sourceLocation: sourceLocation)
        try await markup(sourceLocation: sourceLocation)
        try await errors(sourceLocation: sourceLocation)
    }

    /// One output per input, in order (each output is what its text gives alone), none empty for
    /// text that is not; no texts give no outputs, and an empty text gives an empty output.
    public func faithfulness(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await requireServed(sourceLocation)
        let options = TranslationOptions()
        #expect(try await engine.translate([], pair: pair, options: options) == [], "no texts give no outputs",
                sourceLocation: sourceLocation)
        let alone = try await sentences.asyncMap { try await engine.translate([$0], pair: pair, options: options) }
        for (text, out) in zip(sentences, alone) {
            #expect(out.count == 1 && out.allSatisfy { !$0.isEmpty }, "'\(text)' alone gave \(out)", sourceLocation: sourceLocation)
        }
        // Empty texts between the others: each stays empty, and the others keep their places.
        let batch = [""] + sentences + [""]
        let together = try await engine.translate(batch, pair: pair, options: options)
        #expect(together.count == batch.count, "\(batch.count) texts gave \(together.count) outputs", sourceLocation: sourceLocation)
        guard together.count == batch.count else { return }
        #expect(together.first == "" && together.last == "", "empty texts gave \(together.first!.debugDescription) and \(together.last!.debugDescription)",
                sourceLocation: sourceLocation)
        #expect(Array(together.dropFirst().dropLast()) == alone.map { $0.first ?? "" },
                "a batch's outputs differ from each text's own output: order or text was lost", sourceLocation: sourceLocation)
    }

    /// A call cancelled while it translates ends within ``cancellationLimit``, with
    /// `CancellationError`, `TranslationError` `.cancelled`, or (if it finished first) one output
    /// per input.
    public func cancellation(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await requireServed(sourceLocation)
        let texts = Array(repeating: sentences, count: cancellationCopies).flatMap { $0 }
        let (engine, pair) = (engine, pair)
        let call = Task { try await engine.translate(texts, pair: pair, options: TranslationOptions()) }
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let cancelled = clock.now
        call.cancel()
        let result = await call.result
        let took = clock.now - cancelled
        #expect(took < cancellationLimit, "the cancelled call took \(took) to end", sourceLocation: sourceLocation)
        switch result {
        case .success(let outputs):
            #expect(outputs.count == texts.count, "a cancelled call that answered gave \(outputs.count) outputs for \(texts.count) texts",
                    sourceLocation: sourceLocation)
        case .failure(let error as TranslationError):
            #expect(error.kind == .cancelled, "a cancelled call threw \(error.kind): \(error.message)", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error is CancellationError, "a cancelled call threw \(error)", sourceLocation: sourceLocation)
        }
        // The engine still works after a cancelled call.
        let after = try await engine.translate([sentences[0]], pair: pair, options: TranslationOptions())
        #expect(after.count == 1 && !after[0].isEmpty, "after a cancelled call: \(after)", sourceLocation: sourceLocation)
    }

    /// HTML keeps every tag, attributes and all, in order.
    public func markup(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await requireServed(sourceLocation)
        let out = try await engine.translate(html, pair: pair, options: TranslationOptions(format: .html))
        #expect(out.count == html.count, sourceLocation: sourceLocation)
        for (input, output) in zip(html, out) {
            #expect(Self.tags(output) == Self.tags(input), "tags of \(input) came back as \(output)", sourceLocation: sourceLocation)
        }
    }

    /// A pair the engine does not list throws a ``TranslationError``.
    public func errors(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let listed = await engine.pairs()
        try #require(!listed.contains(unservedPair), "pick an unserved pair: \(unservedPair) is served", sourceLocation: sourceLocation)
        let error = await #expect(throws: TranslationError.self, "\(unservedPair) is not served", sourceLocation: sourceLocation) {
            try await engine.translate([sentences[0]], pair: unservedPair, options: TranslationOptions())
        }
        #expect(error.map { !$0.message.isEmpty } ?? true, "the error says nothing", sourceLocation: sourceLocation)
    }

    private func requireServed(_ sourceLocation: SourceLocation) async throws {
        let listed = await engine.pairs()
        try #require(listed.contains(pair), "\(engine.name) does not list \(pair): \(listed)", sourceLocation: sourceLocation)
    }

    /// The tags of an HTML text, as written.
    static func tags(_ html: String) -> [Substring] {
        html.matches(of: /<[^<>]+>/).map(\.output)
    }
}

extension Array {
    /// `transform` over the elements one after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
