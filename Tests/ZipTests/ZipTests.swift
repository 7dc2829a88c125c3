import Foundation
import Testing
@testable import Zip

/// A zip written by Python's zipfile to a stream it cannot seek (so every entry has a data
/// descriptor): a stored `mimetype` first, two deflated entries, and an archive comment.
let pythonZip = [UInt8](Data(base64Encoded: """
UEsDBBQACAAAAAAAIQAAAAAAAAAAAAAAAAAIAAAAbWltZXR5cGVhcHBsaWNhdGlvbi92bmQub2FzaXMub3BlbmRvY3VtZW50LnRleHRQSwcIXsYyDCcAAAAnAAAAUEsDBBQACAAIAE5bgV0AAAAAAAAAAAAAAAALAAAAY29udGVudC54bWyzSclPtrMpsPNIzcnJVyjPL8pJ0VHIwMHRs9EvsLPRB2uhsz4AUEsHCCno4fklAAAAqAAAAFBLAwQUAAgACABOW4FdAAAAAAAAAAAAAAAADgAAAFBpY3R1cmVzL2EuYmluAQAB//4AAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl9gYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7fH1+f4CBgoOEhYaHiImKi4yNjo+QkZKTlJWWl5iZmpucnZ6foKGio6SlpqeoqaqrrK2ur7CxsrO0tba3uLm6u7y9vr/AwcLDxMXGx8jJysvMzc7P0NHS09TV1tfY2drb3N3e3+Dh4uPk5ebn6Onq6+zt7u/w8fLz9PX29/j5+vv8/f7/UEsHCHOMBSkFAQAAAAEAAFBLAQIUAxQACAAAAAAAIQBexjIMJwAAACcAAAAIAAAAAAAAAAAAAACAAQAAAABtaW1ldHlwZVBLAQIUAxQACAAIAE5bgV0p6OH5JQAAAKgAAAALAAAAAAAAAAAAAACAAV0AAABjb250ZW50LnhtbFBLAQIUAxQACAAIAE5bgV1zjAUpBQEAAAABAAAOAAAAAAAAAAAAAACAAbsAAABQaWN0dXJlcy9hLmJpblBLBQYAAAAAAwADAKsAAAD8AQAADABrZXB0IGNvbW1lbnQ=
""", options: .ignoreUnknownCharacters)!)

@Suite struct ZipTests {
    let content = Array(String(repeating: "<doc><p>Hello world, hello world, hello world.</p></doc>", count: 3).utf8)

    @Test func readsStoredAndDeflatedEntriesOfAnotherWriter() throws {
        let zip = try ZipArchive(bytes: pythonZip)
        #expect(zip.entries.map(\.path) == ["mimetype", "content.xml", "Pictures/a.bin"])
        #expect(try zip.contents(of: zip.entries[0]) == Array("application/vnd.oasis.opendocument.text".utf8))
        #expect(try zip.contents(of: zip.entries[1]) == content)
        #expect(try zip.contents(of: zip.entries[2]) == (0...255).map(UInt8.init))
        #expect(zip.declaredUncompressedSize == 39 + content.count + 256)
    }

    @Test func aFlippedByteIsACRCError() throws {
        var bytes = pythonZip
        bytes[30 + 8 + 3] ^= 0xFF   // a data byte of the stored mimetype entry
        let zip = try ZipArchive(bytes: bytes)
        let error = #expect(throws: ZipError.self) { try zip.contents(of: zip.entries[0]) }
        #expect(error?.message.contains("CRC mismatch") == true)
        #expect(error?.code == .damaged)
    }

    @Test func truncatedAndForeignBytesAreClearErrors() {
        for cut in [0, 10, pythonZip.count / 2, pythonZip.count - 5] {
            #expect(throws: ZipError.self) { _ = try ZipArchive(bytes: Array(pythonZip[0..<cut])) }
        }
        let text = #expect(throws: ZipError.self) { _ = try ZipArchive(bytes: Array("just text, not a zip".utf8)) }
        #expect(text?.code == .notZip)
    }

    @Test func rewritingReplacesOneEntryAndKeepsEveryOtherByte() throws {
        let zip = try ZipArchive(bytes: pythonZip)
        let replacement = Array("<doc><p>Hola mundo.</p></doc>".utf8)
        let out = try ZipWriter.rewrite(zip, replacing: ["content.xml": replacement])
        let copy = try ZipArchive(bytes: out)
        #expect(copy.entries.map(\.path) == zip.entries.map(\.path))
        #expect(try copy.contents(of: copy.entries[1]) == replacement)
        #expect(copy.entries[1].method == 8)
        // The stored mimetype entry is first, stored, and byte-identical (header and data).
        #expect(copy.entries[0].method == 0 && copy.entries[0].localHeaderOffset == 0)
        let mimeEnd = zip.entries[1].localHeaderOffset
        #expect(Array(out[0..<mimeEnd]) == Array(pythonZip[0..<mimeEnd]))
        // The untouched deflated entry is copied as stored, and the archive comment survives.
        let picture = try zip.rawData(of: zip.entries[2]), copied = try copy.rawData(of: copy.entries[2])
        #expect(Array(picture) == Array(copied))
        #expect(try copy.contents(of: copy.entries[2]) == (0...255).map(UInt8.init))
        #expect(out.suffix(12) == Array("kept comment".utf8)[...])
        // Rewriting with nothing replaced gives the archive back, byte for byte.
        #expect(try ZipWriter.rewrite(zip, replacing: [:]) == pythonZip)
    }

    @Test func deflateRoundTripsLargeAndEmptyInputs() {
        var random = SystemRandomNumberGenerator()
        for input in [[UInt8](), Array(repeating: 65, count: 1 << 20), (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }] {
            let packed = Deflate.deflate(input)
            #expect(Deflate.inflate(packed[...], size: input.count) == input)
            #expect(Deflate.inflate(packed[...], size: max(0, input.count - 1)) == nil || input.isEmpty)
        }
    }
}
