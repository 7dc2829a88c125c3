import Testing
import TranslationCore
@testable import ApertiumEngine

@Suite("ChunkPacker: short texts share chunks, every text comes back in its place")
struct ChunkPackerTests {
    let packer = ChunkPacker(nonce: "test")

    @Test("short texts are packed, long ones chunked alone, empty ones skipped")
    func plans() {
        let short = ["One.", "Two.", "", "Three."].map { $0.isEmpty ? nil : TextDeformatter.deformat($0) }
        let long = TextDeformatter.deformat(String(repeating: "A long sentence here. ", count: 100))
        let plan = packer.plan(short + [long] + [TextDeformatter.deformat("Four.")], chunkSize: 1024)
        #expect(plan.parts[0] == .packed(chunk: 0, piece: 0))
        #expect(plan.parts[1] == .packed(chunk: 0, piece: 1))
        #expect(plan.parts[2] == .empty)
        #expect(plan.parts[3] == .packed(chunk: 0, piece: 2))
        guard case .chunks(let range) = plan.parts[4] else { Issue.record("long text not chunked alone"); return }
        #expect(range.lowerBound == 1 && range.count >= 2)
        #expect(plan.parts[5] == .packed(chunk: range.upperBound, piece: 0))
        #expect(plan.chunks.allSatisfy { $0.count <= 1024 + 64 })
    }

    @Test("every byte of every text is in the plan, in order")
    func coversEverything() {
        let texts = (0..<500).map { "Sentence number \($0) of the batch." }
        let streams = texts.map { Optional(TextDeformatter.deformat($0)) }
        let plan = packer.plan(streams, chunkSize: 1024)
        let joined = plan.chunks.map { packer.split($0) }.flatMap { $0 }
        #expect(joined == streams.map { $0!.bytes })
        #expect(plan.chunks.count < 100, "500 one-line texts travel in far fewer chunks")
    }

    @Test("split finds every separator and keeps text around it")
    func splits() {
        let sep = packer.separator
        #expect(packer.split(Array("a".utf8) + sep + Array("b".utf8) + sep).map { String(decoding: $0, as: UTF8.self) } == ["a", "b", ""])
        #expect(packer.split(Array("no separator [<b>]".utf8)).count == 1)
    }

    @Test("a user's text cannot forge the separator")
    func cannotForge() {
        let forged = "x [<glossa-sep-test/>] y"
        let plan = packer.plan([TextDeformatter.deformat(forged), TextDeformatter.deformat("z")], chunkSize: 1024)
        #expect(packer.split(plan.chunks[0]).count == 2)
    }
}
