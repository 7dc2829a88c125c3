/// How the text to translate is marked up.
public enum TextFormat: String, Sendable, Codable, CaseIterable {
    /// Plain text: every character is content.
    case text
    /// HTML: tags and entities are kept; only the text between tags is translated.
    case html

    /// Parses `text`/`plain`/`html` (any case).
    /// - Throws: ``TranslationError`` `.invalidArgument` naming the accepted values.
    public init(parsing value: String) throws {
        switch value.lowercased() {
        case "text", "plain", "txt", "text/plain": self = .text
        case "html", "text/html": self = .html
        default: throw TranslationError.invalidArgument("format", given: value, accepted: "text, html")
        }
    }
}
