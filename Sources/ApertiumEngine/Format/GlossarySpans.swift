import TranslationCore

/// Glossary terms on their way into an Apertium stream.
///
/// A term found in the input goes to the pipeline as a superblank holding its target term: every
/// stage passes a superblank through unchanged and in place, so the translation has the target
/// term exactly where the source term was, and the words around it are analysed, transferred and
/// generated as usual (they see a blank where the term was). The term is never matched in the
/// output: what the pipeline writes is not searched or edited.
struct GlossarySpans {
    private let matches: [GlossaryMatch]
    private var next = 0

    init(_ matches: [GlossaryMatch]) { self.matches = matches }

    /// When a term starts at `index`, writes its target (as `target` renders it for the format)
    /// as a blank and returns where the term ends; else nil. Terms the deformatter stepped over
    /// (inside markup) are dropped.
    mutating func place(at index: Int, into builder: inout StreamBuilder, target: (String) -> String) -> Int? {
        while next < matches.count, matches[next].range.lowerBound < index { next += 1 }
        guard next < matches.count, matches[next].range.lowerBound == index else { return nil }
        let match = matches[next]
        next += 1
        builder.appendBlank(Array(target(match.target).utf8), endsSentence: false, escape: TextDeformatter.needsEscape)
        return match.range.upperBound
    }
}
