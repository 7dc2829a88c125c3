import TranslationCore

/// The passage each source language's probe translates (`Data/probe-texts.tsv`, embedded in the
/// binary at build time, so a copied binary carries it).
enum ProbeTexts {
    /// Passages by ISO 639-3 code; `default` serves languages without one.
    static let all: [String: String] = parse(String(decoding: PackageResources.probe_texts_tsv, as: UTF8.self))

    /// The passage for `language` (its base language's, or the default one).
    static func text(for language: LanguageCode) -> String {
        all[language.iso639_3] ?? all["default"] ?? "Hello."
    }

    /// `code<TAB>passage` lines; `#` starts a comment line.
    static func parse(_ tsv: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in tsv.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            if fields.count == 2 { out[String(fields[0])] = String(fields[1]) }
        }
        return out
    }
}
