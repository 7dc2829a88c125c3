import Foundation
import TranslationCore

/// HTML → Apertium stream, matching Debian's `apertium-deshtml` (see `DeformatterTests`): tags,
/// comments, `<script>`/`<style>` bodies and markup entities become superblanks, block tags end
/// sentences, and only the text between tags is translated.
///
/// One deliberate difference: deshtml decodes letter entities (`&eacute;`) into Latin-1 bytes,
/// which garbles UTF-8 output; Glossa decodes them into UTF-8 letters (`é`) so they are translated
/// as part of their word, and keeps every other entity verbatim as a superblank.
enum HTMLDeformatter {
    /// Characters backslash-escaped in words (`<` and `>` never reach a word: they are blanks).
    static func needsEscape(_ b: UInt8) -> Bool {
        switch b {
        case Byte.openBracket, Byte.closeBracket, Byte.backslash, Byte.slash, Byte.at, Byte.caret,
             Byte.dollar, Byte.openBrace, Byte.closeBrace:
            return true
        default:
            return false
        }
    }

    /// Deformats `html`; its placeholders, and each term of `glossary` found in its text (not in
    /// tags, comments or untranslated elements, and not across a tag or a character reference),
    /// travel as superblanks, a term's target HTML-escaped (``ProtectedSpans``).
    /// With `placeholders` false, placeholders are text, as `apertium-deshtml` reads them.
    /// `markup` adds elements to leave untranslated and changes which end sentences.
    static func deformat(_ html: String, glossary: Glossary? = nil, placeholders: Bool = true,
                         markup: MarkupOptions = MarkupOptions()) -> DeformattedText {
        let input = Array(html.utf8)
        let found = ProtectedSpan.find(in: input, format: .html, glossary: glossary, placeholders: placeholders).filter { span in
            !input[span.range].contains { $0 == Byte.less || $0 == Byte.greater || $0 == Byte.ampersand }
        }
        var builder = StreamBuilder(capacity: input.count, escape: needsEscape)
        var spans = ProtectedSpans(found, source: { Array(input[$0]) }, render: HTMLCharacterReferences.escape)
        var i = 0
        while i < input.count {
            let b = input[i]
            if let end = spans.place(at: i, into: &builder) {
                i = end
            } else if Byte.isBlank(b) {
                builder.appendBlank(CollectionOfOne(b), endsSentence: false, escape: needsEscape)
                i += 1
            } else if b == Byte.less {
                let end = MarkupScanner.markupEnd(input, from: i, markup: markup)
                builder.appendBlank(input[i..<end.index], endsSentence: end.endsSentence, escape: needsEscape)
                i = end.index
            } else if b == Byte.openBrace, i + 1 < input.count, input[i + 1] == Byte.openBrace,
                      let close = MarkupScanner.find(input, "}}", from: i + 2) {
                // `{{…}}` is a comment to deshtml (templates: MediaWiki, Vue, Angular).
                builder.appendBlank(input[i..<(close + 2)], endsSentence: false, escape: needsEscape)
                i = close + 2
            } else if b == Byte.greater {
                builder.appendBlank(CollectionOfOne(b), endsSentence: false, escape: needsEscape)
                i += 1
            } else if b == Byte.ampersand, let entity = HTMLEntities.match(input, at: i) {
                if let letter = entity.letter {
                    for byte in letter.utf8 { builder.appendWordByte(byte) }
                } else {
                    builder.appendBlank(input[i..<entity.end], endsSentence: false, escape: needsEscape)
                }
                i = entity.end
            } else if b == Byte.nul {
                // A NUL would end the request frame early: it travels as a marker instead.
                builder.appendRawBlank(Reformatter.nulToken)
                i += 1
            } else {
                builder.appendWordByte(b)
                i += 1
            }
        }
        return builder.finish()
    }

}
