import Testing
@testable import Documents

@Suite struct PieceCodecTests {
    @Test func markersSeparatePiecesAndTextIsEscaped() {
        let segment = Segment(kind: .pieces, pieces: ["Tom & ", "Jerry", " <3"], joinable: [true, true])
        let html = PieceCodec.encode(segment)
        #expect(html == "Tom &amp; <g1>Jerry<g2> &lt;3")
        #expect(PieceCodec.decode(html, for: segment) == segment.pieces)
    }

    @Test func aWordCutByFormattingOnlyTravelsWhole() {
        let segment = Segment(kind: .pieces, pieces: ["The hou", "se is red"], joinable: [true])
        #expect(PieceCodec.encode(segment) == "The house is red")
        #expect(PieceCodec.decode("La casa es roja", for: segment) == ["La casa es roja", ""])
        // A tab or line break between the pieces is a blank: the word does not continue.
        let tabbed = Segment(kind: .pieces, pieces: ["one", "two"], joinable: [false])
        #expect(PieceCodec.encode(tabbed) == "one<g1>two")
    }

    @Test func markersOutOfOrderOrMissingLoseNoText() {
        let segment = Segment(kind: .pieces, pieces: ["a ", "b ", "c"], joinable: [true, true])
        #expect(PieceCodec.decode("x <g2>z <g1>y", for: segment) == ["x ", "y", "z "])
        #expect(PieceCodec.decode("x y z", for: segment) == ["x y z", "", ""])
        #expect(PieceCodec.decode("x <g9>y <gq", for: segment) == ["x <g9>y <gq", "", ""])
    }
}
