import CZlib
import Foundation
import TranslationCore

/// A minimal reader for the zip files Argos Translate packages use: stored and deflated
/// entries, no ZIP64, no encryption. Entries are checked against their CRC-32.
public struct ZipArchive: Sendable {
    /// One file of the archive.
    public struct Entry: Sendable {
        /// Path inside the archive (`/`-separated).
        public let path: String
        let method: UInt16
        let flags: UInt16
        let crc: UInt32
        let compressedSize: Int
        let size: Int
        let localHeaderOffset: Int
        /// Whether this is a directory entry.
        public var isDirectory: Bool { path.hasSuffix("/") }
    }

    /// The archive file name, for messages.
    public let name: String
    private let data: Data
    /// The entries in central-directory order.
    public let entries: [Entry]

    /// Opens the zip file at `url`.
    /// - Throws: ``TranslationError`` naming the file and the problem.
    public init(url: URL) throws {
        try self.init(data: try readFile(url), name: url.path)
    }

    /// Parses an in-memory zip file.
    public init(data: Data, name: String) throws {
        self.data = data
        self.name = name
        let bytes = [UInt8](data)
        func fail(_ what: String) -> TranslationError {
            TranslationError(.engineFailure, "Malformed package \(name): \(what).")
        }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        guard bytes.count >= 22 else { throw fail("not a zip file (too short)") }
        // The end-of-central-directory record is in the last 22 + 65535 bytes.
        var eocd = -1
        var o = bytes.count - 22
        let stop = max(0, bytes.count - 22 - 65535)
        while o >= stop {
            if bytes[o] == 0x50, bytes[o + 1] == 0x4b, bytes[o + 2] == 0x05, bytes[o + 3] == 0x06 { eocd = o; break }
            o -= 1
        }
        guard eocd >= 0 else { throw fail("not a zip file (no end of central directory)") }
        let count = u16(eocd + 10)
        let cdSize = u32(eocd + 12)
        let cdOffset = u32(eocd + 16)
        guard count != 0xFFFF, cdOffset != 0xFFFF_FFFF else { throw fail("ZIP64 archives are not supported") }
        guard cdOffset + cdSize <= eocd else { throw fail("central directory lies outside the file (truncated?)") }
        var entries: [Entry] = []
        var p = cdOffset
        for _ in 0..<count {
            guard p + 46 <= eocd, u32(p) == 0x0201_4b50 else { throw fail("central directory entry at byte \(p) is damaged") }
            let nameLength = u16(p + 28), extraLength = u16(p + 30), commentLength = u16(p + 32)
            guard p + 46 + nameLength <= eocd else { throw fail("central directory entry at byte \(p) is truncated") }
            guard let path = String(validating: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self) else {
                throw fail("an entry name is not UTF-8")
            }
            let entry = Entry(path: path, method: UInt16(u16(p + 10)), flags: UInt16(u16(p + 8)), crc: UInt32(u32(p + 16)),
                              compressedSize: u32(p + 20), size: u32(p + 24), localHeaderOffset: u32(p + 42))
            guard entry.size != 0xFFFF_FFFF, entry.compressedSize != 0xFFFF_FFFF else { throw fail("ZIP64 entry \(path) is not supported") }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The uncompressed bytes of `entry`, CRC-checked.
    public func contents(of entry: Entry) throws -> Data {
        func fail(_ what: String) -> TranslationError {
            TranslationError(.engineFailure, "Malformed package \(name): entry \(entry.path): \(what).")
        }
        guard entry.flags & 1 == 0 else { throw fail("encrypted entries are not supported") }
        let o = entry.localHeaderOffset
        guard o + 30 <= data.count else { throw fail("local header lies outside the file (truncated?)") }
        let header = [UInt8](data[(data.startIndex + o)..<(data.startIndex + o + 30)])
        guard header[0] == 0x50, header[1] == 0x4b, header[2] == 0x03, header[3] == 0x04 else { throw fail("local header is damaged") }
        let start = o + 30 + (Int(header[26]) | Int(header[27]) << 8) + (Int(header[28]) | Int(header[29]) << 8)
        guard start + entry.compressedSize <= data.count else { throw fail("data is truncated") }
        let compressed = [UInt8](data[(data.startIndex + start)..<(data.startIndex + start + entry.compressedSize)])
        var output: [UInt8]
        switch entry.method {
        case 0:
            output = compressed
        case 8:
            output = try Self.inflate(compressed, size: entry.size, fail: fail)
        default:
            throw fail("compression method \(entry.method) is not supported (only stored and deflate)")
        }
        guard output.count == entry.size else { throw fail("size is \(output.count), expected \(entry.size)") }
        let crc = output.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        guard crc == entry.crc else { throw fail("CRC mismatch (damaged data)") }
        return Data(output)
    }

    private static func inflate(_ input: [UInt8], size: Int, fail: (String) -> TranslationError) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(size, 1))
        var stream = z_stream()
        // −15: raw deflate data without a zlib header, as stored in zip entries.
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw fail("zlib initialisation failed")
        }
        defer { inflateEnd(&stream) }
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = inp.baseAddress
                stream.avail_in = uInt(inp.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw fail("deflate data is damaged (zlib status \(status))") }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
