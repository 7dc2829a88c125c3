import TranslationCore
import TranslationService

/// The languages LibreTranslate's endpoints list and accept, in its spellings.
struct LibreTranslateCatalog {
    /// One listed language.
    struct Entry {
        let code: String
        let language: LanguageCode
        /// LibreTranslate codes reachable from it, sorted.
        let targets: [String]
    }

    let served: ServedLanguages
    let entries: [Entry]

    init(_ served: ServedLanguages) {
        self.served = served
        var seen = Set<String>()
        var entries: [Entry] = []
        for language in served.listed {
            let code = LibreTranslateCodes.code(language)
            guard seen.insert(code).inserted else { continue }
            // Exactly what `language` reaches, directly or through pivots.
            let targets = Set(served.targets(from: language).map(LibreTranslateCodes.code))
            entries.append(Entry(code: code, language: language, targets: targets.subtracting([code]).sorted()))
        }
        self.entries = entries.sorted { $0.code < $1.code }
    }

    /// Whether some route translates from `language`.
    func isSource(_ language: LanguageCode) -> Bool { served.isSource(language) }

    /// Whether some route translates into `language`.
    func isTarget(_ language: LanguageCode) -> Bool { served.isTarget(language) }

    /// Whether `/languages` lists `language` (a source, or a language only translated into).
    func isListed(_ language: LanguageCode) -> Bool { entries.contains { $0.language.serves(language) } }

    /// A detection as LibreTranslate reports it: the candidates that `/languages` lists, most
    /// likely first, at most three, confidences 0–100. LibreTranslate's detector only ever
    /// answers languages it has (detect.py `check_lang`: every installed language, a target-only
    /// one included), so a client can pick the first.
    func candidates(_ detection: Detection) -> [(language: LanguageCode, confidence: Double)] {
        var out: [(LanguageCode, Double)] = []
        let all = (detection.language.map { [($0, detection.confidence)] } ?? [])
            + detection.alternatives.map { ($0.language, $0.confidence) }
        for (language, confidence) in all where isListed(language) && !out.contains(where: { $0.0 == language }) {
            out.append((language, LibreTranslateCodes.confidence(confidence)))
        }
        return Array(out.prefix(3))
    }
}
