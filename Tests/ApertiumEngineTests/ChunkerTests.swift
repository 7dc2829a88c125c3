import Testing
@testable import ApertiumEngine

@Suite struct ChunkerTests {
    func check(_ text: DeformattedText, size: Int) -> [Range<Int>] {
        let ranges = Chunker.ranges(of: text, size: size)
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

    @Test func cutsAtSpacesWithoutSentences() {
        let stream = TextDeformatter.deformat(String(repeating: "word ", count: 1000))
        for range in check(stream, size: 100).dropLast() {
            #expect(stream.bytes[range.upperBound - 1] == 0x20)
        }
    }

    @Test func longWordIsCutOutsideEscapesAndCharacters() {
        let word = String(repeating: "é/[ü", count: 500) // multi-byte letters and escapes, no break
        let stream = TextDeformatter.deformat(word)
        let ranges = check(stream, size: 64)
        #expect(ranges.count > 10)
        for range in ranges {
            // Every chunk is valid UTF-8 and ends on a complete escape.
            #expect(String(validating: Array(stream.bytes[range]), as: UTF8.self) != nil)
            #expect(Reformatter.reformat(Array(stream.bytes[range])).count > 0)
        }
        #expect(ranges.map { Reformatter.reformat(Array(stream.bytes[$0])) }.joined() == word)
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
