/// How a request wants its markup and sentences read (DeepL's tag and sentence options). The
/// defaults are how every protocol reads text when it says nothing.
public struct MarkupOptions: Sendable, Hashable {
    /// Elements whose content is not translated, besides those every page marks so
    /// (`translate="no"`, `class="notranslate"`, `<script>`, `<style>`, `<code>`). DeepL's `ignore_tags`.
    public var ignoredElements: Set<String>
    /// Elements that end a sentence, besides the block elements (`<p>`, `<li>`, …). DeepL's `splitting_tags`.
    public var splittingElements: Set<String>
    /// Elements that never end a sentence, even block ones. DeepL's `non_splitting_tags`.
    public var nonSplittingElements: Set<String>
    /// Whether the block elements end sentences on their own (DeepL's `outline_detection`);
    /// false: only ``splittingElements`` do.
    public var detectsOutline: Bool
    /// Whether a line break ends a sentence in plain text (DeepL's `split_sentences`: `1`, the
    /// default, yes; `0` and `nonewlines`, no). A sentence mark (`.`, `?`) always ends one: the
    /// engines' own analysis reads them.
    public var newlinesEndSentences: Bool

    /// Element names are compared lower-cased.
    public init(ignoredElements: Set<String> = [], splittingElements: Set<String> = [], nonSplittingElements: Set<String> = [],
                detectsOutline: Bool = true, newlinesEndSentences: Bool = true) {
        self.ignoredElements = Set(ignoredElements.map { $0.lowercased() })
        self.splittingElements = Set(splittingElements.map { $0.lowercased() })
        self.nonSplittingElements = Set(nonSplittingElements.map { $0.lowercased() })
        self.detectsOutline = detectsOutline
        self.newlinesEndSentences = newlinesEndSentences
    }

    /// Whether an element of this (lower-cased) name ends a sentence, given whether the format
    /// makes it a block.
    public func endsSentence(_ name: String, isBlock: Bool) -> Bool {
        guard !nonSplittingElements.contains(name) else { return false }
        return splittingElements.contains(name) || (detectsOutline && isBlock)
    }
}
