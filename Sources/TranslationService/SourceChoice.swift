import TranslationCore

/// How a text's source language is chosen when the request leaves it to detection: the one
/// place where that is decided, for every protocol, the CLI and the SDK.
///
/// - The detector reads the text a reader sees (``MarkupText``), never the markup.
/// - Text with no language in it (digits, punctuation, emoji, a URL) is *undetermined*: it
///   comes back unchanged and its source is reported as such (`und`, or the protocol's way).
/// - The most probable language is used when a route translates from it. When none does and the
///   detector is unsure, the most probable candidate that has a route is used instead (a short
///   ambiguous word is as likely to be in a language that is served); a language detected
///   reliably is kept, and the text is refused or passed through (``TranslationService``).
enum SourceChoice {
    /// The detection a translation goes by: `detection` itself, or, when its answer has no route
    /// to `target` and it is unsure, the most probable alternative that has one, promoted to the
    /// answer with its own confidence. `routes(language)` says whether `language` reaches the
    /// target (or is the target's language, where nothing is translated).
    static func choose(_ detection: Detection, routes: (LanguageCode) -> Bool) -> Detection {
        guard let top = detection.language, !routes(top), !detection.isReliable else { return detection }
        guard let k = detection.alternatives.firstIndex(where: { routes($0.language) }) else { return detection }
        let chosen = detection.alternatives[k]
        var rest = detection.alternatives
        rest.remove(at: k)
        rest.insert(.init(language: top, confidence: min(detection.confidence, chosen.confidence)), at: 0)
        // The detector's own answer stays the first alternative: it was the more probable one.
        return Detection(language: chosen.language, confidence: chosen.confidence, isReliable: false, alternatives: rest)
    }

    /// Whether an engine's output for `input` lost every word: an engine may legitimately drop
    /// a word it reads as a clitic or a particle ("hi" from Catalan), and a non-empty text must
    /// never come back as an empty translation.
    static func lostEverything(input: String, output: String, format: TextFormat) -> Bool {
        isBlank(MarkupText.content(of: output, format: format)) && !isBlank(MarkupText.content(of: input, format: format))
    }

    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }
}
