import TranslationCore

/// A fake engine for routing tests: "translates" by tagging text with the pair it went through,
/// so a test can see exactly which engine steps a text took.
struct TaggingEngine: TranslationEngine {
    let name: String
    let served: [LanguagePair]

    func pairs() async -> [LanguagePair] { served }

    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        guard served.contains(pair) else { throw TranslationError(.unsupportedPair, "fake does not serve \(pair)") }
        return texts.map { "\($0)>\(pair.target.bcp47)" }
    }

    func shutdown() async {}
}

/// A fake engine whose `failing` pairs stop working when first used, as an Apertium pair does
/// when its probe fails on first use: the call is refused and the pair leaves `pairs()`.
actor FailingOnFirstUseEngine: TranslationEngine {
    nonisolated let name = "failing"
    private var served: [LanguagePair]
    private var failing: Set<LanguagePair>
    private var reasons: [LanguagePair: String] = [:]

    init(served: [LanguagePair], failing: [LanguagePair]) {
        self.served = served
        self.failing = Set(failing)
    }

    func pairs() async -> [LanguagePair] { served }

    func unavailablePairs() async -> [LanguagePair: String] { reasons }

    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        if failing.contains(pair) {
            served.removeAll { $0 == pair }
            reasons[pair] = "its probe failed"
            throw TranslationError(.unsupportedPair, "\(pair) does not work here: its probe failed")
        }
        guard served.contains(pair) else { throw TranslationError(.unsupportedPair, "fake does not serve \(pair)") }
        return texts.map { "\($0)>\(pair.target.bcp47)" }
    }

    func shutdown() async {}
}

/// A fake detector that reads the language from a `lang:` prefix, and knows nothing otherwise.
struct PrefixDetector: LanguageDetector {
    func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        texts.map { text in
            guard let colon = text.firstIndex(of: ":"), let code = try? LanguageCode(parsing: String(text[..<colon])) else {
                return .unknown
            }
            return Detection(language: code, confidence: 0.9, isReliable: true)
        }
    }
}

func pairs(_ names: String...) -> [LanguagePair] {
    names.map { try! LanguagePair(parsing: $0) }
}

/// A fake engine that marks unknown words as Apertium does when asked (`*` before its output) and
/// reads a leading `*` in its input as part of a word it does not know, so a test sees whether an
/// earlier step's marks leaked into a later step.
struct MarkingEngine: TranslationEngine {
    let name = "marking"
    let served: [LanguagePair]

    func pairs() async -> [LanguagePair] { served }

    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        guard served.contains(pair) else { throw TranslationError(.unsupportedPair, "fake does not serve \(pair)") }
        return texts.map { (options.markUnknownWords ? "*" : "") + "\($0)>\(pair.target.bcp47)" }
    }

    func shutdown() async {}
}
