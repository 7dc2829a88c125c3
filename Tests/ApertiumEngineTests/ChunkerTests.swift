import Testing
@testable import ApertiumEngine

@Suite struct ChunkerTests {
    func check(_ text: DeformattedText, size: Int, maxSize: Int? = nil) -> [Range<Int>] {
        let ranges = Chunker.ranges(of: text, size: size, maxSize: maxSize)
        // Contiguous and covering: nothing dropped, nothing twice.
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == text.bytes.count)
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        #expect(ranges.allSatisfy { !$0.isEmpty })
        return ranges
    }

    @Test func coversEveryByteAndPrefersSentenceEnds() {
        let text = String(repeating: "One sentence here. Another one follows! ", count: 200)
        let stream = TextDeformatter.deformat(text)
        let ranges = check(stream, size: 200)
        #expect(ranges.count > 10)
        for range in ranges.dropLast() {
            let chunk = String(decoding: stream.bytes[range], as: UTF8.self)
            #expect(chunk.hasSuffix(". ") || chunk.hasSuffix("! "), "chunk ends mid-sentence: \(chunk.suffix(20))")
            #expect(range.count <= 200)
        }
    }

    /// Sentences longer than the target size are kept whole up to `maxSize`, so a chunk never
    /// ends mid-sentence while a sentence break lies within it; only a longer sentence is cut.
    @Test func keepsSentencesWholeUpToTheMaximum() {
        let long = String(repeating: "many words go on ", count: 20) + "here. "          // 346 bytes
        let text = "Short one. " + long + "Tiny. " + long + String(repeating: "never ending words ", count: 80)
        let stream = TextDeformatter.deformat(text)
        let ranges = check(stream, size: 64, maxSize: 512)
        let chunks = ranges.map { String(decoding: stream.bytes[$0], as: UTF8.self) }
        for chunk in chunks.dropLast() where !chunk.contains("never ending") {
            #expect(chunk.hasSuffix(". "), "chunk ends mid-sentence: \(chunk.suffix(20))")
        }
        #expect(chunks.contains { $0.hasSuffix(long) }, "a 346-byte sentence was cut at size 64")
        // The last, 1,520-byte sentence has no break within 512 bytes: cut at word breaks.
        #expect(ranges.allSatisfy { $0.count <= 512 })
        #expect(chunks.joined() == String(decoding: stream.bytes, as: UTF8.self))
    }

    /// A `.`, `!` or `?` is a sentence break (a place to cut) only where ``SentenceBoundary``
    /// says so: not before a lowercase word, not after initials or a title. A cut where the
    /// pipeline sees no sentence end would end one there (`8:46 a.m. a hush` came back as
    /// `a.m. Un hush`). Paragraph breaks always are.
    @Test func sentenceBreaksSkipAbbreviationsAndLowercaseContinuations() {
        let text = "The U.S. Army says this. Then at 8:46 a.m. a hush fell. Mr. Smith came! Yahoo! and more? Écoute bien. Done\n\nnext paragraph"
        let stream = TextDeformatter.deformat(text)
        let before = stream.sentenceBreaks.map { String(decoding: stream.bytes[..<$0], as: UTF8.self) }
        let ends = before.map { String($0.suffix(8)) }
        #expect(ends == ["s this. ", "h fell. ", "h came! ", "d more? ", "e bien. ", "e.[][\n\n]", "graph.[]"],
                "sentence breaks after: \(ends)")
    }

    @Test func cutsAtSpacesWithoutSentences() {
        let stream = TextDeformatter.deformat(String(repeating: "word ", count: 1000))
        for range in check(stream, size: 100).dropLast() {
            #expect(stream.bytes[range.upperBound - 1] == 0x20)
        }
    }

    @Test func aWordIsNeverCut() {
        // A 10 KB word (multi-byte letters and escapes, no break) between short words: the
        // word's chunk grows past the size instead, since each chunk is analysed on its own.
        let word = String(repeating: "é/[ü", count: 2500)
        let stream = TextDeformatter.deformat("one two " + word + " three four five six seven")
        let ranges = check(stream, size: 64)
        let chunks = ranges.map { Reformatter.reformat(Array(stream.bytes[$0])) }
        #expect(chunks.contains { $0.contains(word) }, "the word was cut: \(chunks.map(\.count))")
        #expect(chunks.joined() == "one two " + word + " three four five six seven")
    }

    @Test func runsSpreadChunksEvenly() {
        #expect(ChunkedTranslator.runs(byteCounts: [], count: 2) == [])
        #expect(ChunkedTranslator.runs(byteCounts: [10], count: 2) == [0..<1])
        #expect(ChunkedTranslator.runs(byteCounts: [10, 10, 10, 10], count: 2) == [0..<2, 2..<4])
        #expect(ChunkedTranslator.runs(byteCounts: [100, 1, 1, 1], count: 2) == [0..<1, 1..<4])
        #expect(ChunkedTranslator.runs(byteCounts: [1, 1, 1, 100], count: 2) == [0..<3, 3..<4])
        #expect(ChunkedTranslator.runs(byteCounts: [5, 5, 5], count: 3) == [0..<1, 1..<2, 2..<3])
        #expect(ChunkedTranslator.runs(byteCounts: [5, 5], count: 1) == [0..<2])
    }

    @Test func longSuperblankIsNeverSplit() {
        let html = "<p>before</p><script>" + String(repeating: "var x = 1; ", count: 200) + "</script><p>after words here</p>"
        let stream = HTMLDeformatter.deformat(html)
        let ranges = check(stream, size: 100)
        for range in ranges {
            var depth = 0, i = range.lowerBound
            while i < range.upperBound {
                if stream.bytes[i] == 0x5C { i += 2; continue }
                if stream.bytes[i] == 0x5B { depth += 1 } else if stream.bytes[i] == 0x5D { depth -= 1 }
                i += 1
            }
            #expect(depth == 0, "a chunk splits a superblank")
        }
        #expect(ranges.map { Reformatter.reformat(Array(stream.bytes[$0])) }.joined() == html)
    }
}
