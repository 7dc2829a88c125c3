import TranslationCore

/// Placeholders and glossary terms (``ProtectedSpan``) on their way into an Apertium stream.
///
/// A span goes to the pipeline as a superblank holding what stands for it (the placeholder
/// itself, or the glossary's target term): every stage passes a superblank through unchanged and
/// in place, so the translation has it exactly where the source had the span, and the words
/// around it are analysed, transferred and generated as usual (they see a blank there). Nothing
/// in the output is searched or edited.
struct ProtectedSpans {
    /// Each span's range and the bytes that stand for it.
    private let spans: [(range: Range<Int>, bytes: [UInt8])]
    private var next = 0

    /// `source` gives the input's bytes of a range (a placeholder stands as it was); `render`
    /// writes a replacement for the format (HTML escapes it).
    init(_ spans: [ProtectedSpan], source: (Range<Int>) -> [UInt8], render: (String) -> String) {
        self.spans = spans.map { ($0.range, $0.output.map { Array(render($0).utf8) } ?? source($0.range)) }
    }

    /// When a span starts at `index`, writes what stands for it as a blank and returns where the
    /// span ends; else nil. Spans the deformatter stepped over (inside markup) are dropped.
    mutating func place(at index: Int, into builder: inout StreamBuilder) -> Int? {
        while next < spans.count, spans[next].range.lowerBound < index { next += 1 }
        guard next < spans.count, spans[next].range.lowerBound == index else { return nil }
        let span = spans[next]
        next += 1
        builder.appendBlank(span.bytes, endsSentence: false, escape: TextDeformatter.needsEscape)
        return span.range.upperBound
    }
}
