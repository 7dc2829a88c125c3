import TranslationCore

extension WritingScript {
    /// Scripts written by one language only (for practical purposes), and that language.
    static let singleLanguage: [WritingScript: LanguageCode] = [
        .greek: "el", .hebrew: "he", .hangul: "ko", .hiragana: "ja", .katakana: "ja", .thai: "th",
        .lao: "lo", .khmer: "km", .myanmar: "my", .georgian: "ka", .armenian: "hy", .ethiopic: "am",
        .gurmukhi: "pa", .gujarati: "gu", .oriya: "or", .tamil: "ta", .telugu: "te", .kannada: "kn",
        .malayalam: "ml", .sinhala: "si", .tibetan: "bo", .thaana: "dv", .bengali: "bn",
    ]
}
