import Testing
@testable import NeuralEngine

@Suite struct SentenceSplitterTests {
    private func sentences(_ text: String) -> [String] {
        SentenceSplitter.segments(text).compactMap { if case .sentence(let s) = $0 { return String(s) } else { return nil } }
    }

    @Test func everyByteSurvives() {
        let texts = ["", " ", "\n", "One. Two!  Three?\r\n\r\nFour…\tFive", "  lead and trail  ",
                     "He said \"Stop.\" Then he left.", "日本語です。次の文です！最後？", "a\u{00A0}b. C",
                     "line\n\n\nline", "“Quoted.” Next", "x.\u{2003}Y", "end.\n"]
        for text in texts {
            let joined = SentenceSplitter.segments(text).map { segment -> Substring in
                switch segment { case .sentence(let s), .gap(let s): return s }
            }.joined()
            #expect(joined == text)
            // Gaps are whitespace only, sentences never start or end with whitespace.
            for segment in SentenceSplitter.segments(text) {
                switch segment {
                case .gap(let g): #expect(!g.isEmpty && g.allSatisfy(\.isWhitespace))
                case .sentence(let s): #expect(!s.first!.isWhitespace && !s.last!.isWhitespace)
                }
            }
        }
    }

    @Test func splitsAtSentenceEnds() {
        #expect(sentences("One. Two!  Three? Four") == ["One.", "Two!", "Three?", "Four"])
        #expect(sentences("He said \"Stop.\" Then he left.") == ["He said \"Stop.\"", "Then he left."])
        #expect(sentences("日本語です。次の文です！最後？") == ["日本語です。", "次の文です！", "最後？"])
        #expect(sentences("Line one\nLine two") == ["Line one", "Line two"])
        #expect(sentences("क्या है। यह है।") == ["क्या है।", "यह है।"])
    }

    @Test func abbreviationsInitialsAndLowercaseDoNotSplit() {
        for whole in ["about one U.S. cent each.", "At 8:46 a.m. a hush fell.", "Piquet Jr. crashed.",
                      "Dr. Smith and Mr. Jones met.", "J. K. Rowling wrote it.", "See No. 5 here.",
                      "It rose 3. 5 points.", "Reading,... the love of reading.", "The U.S. Army came."] {
            #expect(sentences(whole) == [whole], "\(whole)")
        }
    }
}
