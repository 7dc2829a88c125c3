import TranslationCore
import Foundation

/// A `POST /v2/translate` request checked as DeepL checks it: `text` (repeated, or a JSON list),
/// `target_lang`, an optional `source_lang`, and every option with DeepL's own accepted values.
/// The tag lists, `outline_detection` and `split_sentences` reach the engines (``MarkupOptions``);
/// options without effect on the words here (`preserve_formatting`: formatting is always kept;
/// `context`: read by nothing, never translated or billed) are accepted; others are refused with a clear
/// error (style rules, translation memories, custom instructions): never ignored
/// where ignoring would change what the caller asked for.
struct DeepLTranslateRequest {
    var texts: [String]
    var source: LanguageCode?
    /// `source_lang` as given, upper-cased: DeepL echoes it as `detected_source_language`.
    var sourceCode: String?
    var target: LanguageCode
    var format: TextFormat
    var showBilledCharacters: Bool
    var modelType: String?
    /// `ignore_tags`, `splitting_tags`, `non_splitting_tags`, `outline_detection` and `split_sentences`.
    var markup: MarkupOptions

    /// Most texts per request, as DeepL allows.
    static let maxTexts = 50

    /// - Throws: ``APIError`` with DeepL's messages.
    init(_ p: Parameters, catalog: DeepLCatalog) throws {
        texts = p.all("text")
        guard !texts.isEmpty else { throw APIError.missingParameter("text") }
        guard texts.count <= Self.maxTexts else { throw APIError.tooManySegments(given: texts.count, limit: Self.maxTexts) }
        let languages = try DeepLLanguageChoice(p)
        target = languages.target
        source = languages.source
        sourceCode = languages.source.map(DeepLCodes.source)
        try Self.check(p, "split_sentences", ["0", "1", "nonewlines"])
        try Self.check(p, "preserve_formatting", Self.booleans)
        try Self.check(p, "outline_detection", Self.booleans)
        try Self.check(p, "tag_handling_version", ["v1", "v2"])
        try Self.check(p, "tag_handling", ["html", "xml"])
        // The engines keep tags and translate the text between them; XML is handled like HTML.
        format = p.last("tag_handling").map { _ in .html } ?? .text
        markup = MarkupOptions(ignoredElements: Self.tags(p, "ignore_tags"), splittingElements: Self.tags(p, "splitting_tags"),
                               nonSplittingElements: Self.tags(p, "non_splitting_tags"),
                               detectsOutline: !["0", "false"].contains(p.last("outline_detection")?.lowercased() ?? "1"),
                               newlinesEndSentences: (p.last("split_sentences") ?? "1") == "1")
        try Self.check(p, "show_billed_characters", Self.booleans)
        showBilledCharacters = ["1", "true"].contains(p.last("show_billed_characters")?.lowercased() ?? "0")
        try Self.check(p, "model_type", ["quality_optimized", "latency_optimized", "prefer_quality_optimized"])
        // One model serves every request: a preference for quality is that model.
        modelType = p.last("model_type").map { $0 == "latency_optimized" ? $0 : "quality_optimized" }
        try Self.check(p, "formality", ["default", "more", "less", "prefer_more", "prefer_less"])
        // Every value is one DeepL accepts: now whether the engines here serve the languages.
        try languages.checkServed(by: catalog)
        if let formality = p.last("formality"), formality == "more" || formality == "less" {
            // No engine here varies formality, so every target lists supports_formality false;
            // DeepL refuses a strict formality for such a target and so does this server.
            throw APIError.translation(TranslationError(.invalidArgument, "'formality' is not supported for given 'target_lang'."))
        }
        for name in ["style_id", "translation_memory_id", "custom_instructions"] where p.has(name) {
            throw APIError.translation(TranslationError(.invalidArgument, "Parameter '\(name)' is not supported by this server."))
        }
    }

    static let booleans = ["0", "1", "true", "false"]

    /// A tag list: repeated, a JSON list, or comma-separated (`x,ignore`), as DeepL takes it.
    static func tags(_ p: Parameters, _ name: String) -> Set<String> {
        Set(p.all(name).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// An option that must be one of `accepted` when given.
    static func check(_ p: Parameters, _ name: String, _ accepted: [String]) throws {
        guard let value = p.last(name) else { return }
        guard accepted.contains(value.lowercased()) else {
            throw APIError.translation(TranslationError(.invalidArgument, "Parameter '\(name)' is invalid."))
        }
    }
}
