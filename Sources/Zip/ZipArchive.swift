import Foundation

/// A reader for the zip archives Glossa meets: Argos Translate model packages and office
/// documents (docx, pptx, xlsx, odt). Stored and deflated entries, no ZIP64, no encryption;
/// every entry is checked against its CRC-32. ``ZipWriter`` writes a copy with some entries
/// replaced, keeping the others byte for byte.
public struct ZipArchive: Sendable {
    /// One file of the archive, as its central directory describes it.
    public struct Entry: Sendable {
        /// Path inside the archive (`/`-separated).
        public let path: String
        /// 0 stored, 8 deflated.
        public let method: UInt16
        /// General-purpose flags (bit 0 encrypted, bit 3 sizes in a data descriptor).
        public let flags: UInt16
        /// CRC-32 of the uncompressed bytes.
        public let crc: UInt32
        /// Bytes of compressed data.
        public let compressedSize: Int
        /// Bytes once uncompressed.
        public let size: Int
        /// Where the entry's local header starts.
        public let localHeaderOffset: Int
        /// The central directory record, verbatim (the writer copies it).
        let centralRecord: [UInt8]
        /// Whether this is a directory entry.
        public var isDirectory: Bool { path.hasSuffix("/") }
    }

    /// The archive's bytes.
    let bytes: [UInt8]
    /// The entries in central-directory order.
    public let entries: [Entry]
    /// Where the central directory starts (everything before it is local headers and data).
    let centralDirectoryOffset: Int
    /// The end-of-central-directory record, verbatim (with the archive comment).
    let endRecord: [UInt8]

    /// Opens the zip file at `url`.
    /// - Throws: ``ZipError``, or the file system's error when the file cannot be read.
    public init(url: URL) throws {
        try self.init(bytes: [UInt8](try Data(contentsOf: url, options: .mappedIfSafe)))
    }

    /// Parses an in-memory zip file.
    /// - Throws: ``ZipError``.
    public init(data: Data) throws(ZipError) {
        try self.init(bytes: [UInt8](data))
    }

    /// Parses an in-memory zip file.
    /// - Throws: ``ZipError``.
    public init(bytes: [UInt8]) throws(ZipError) {
        self.bytes = bytes
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        guard bytes.count >= 22 else { throw ZipError(.notZip, "not a zip file (too short)") }
        // The end-of-central-directory record is in the last 22 + 65535 bytes.
        var eocd = -1
        var o = bytes.count - 22
        let stop = max(0, bytes.count - 22 - 65535)
        while o >= stop {
            if bytes[o] == 0x50, bytes[o + 1] == 0x4b, bytes[o + 2] == 0x05, bytes[o + 3] == 0x06 { eocd = o; break }
            o -= 1
        }
        guard eocd >= 0 else { throw ZipError(.notZip, "not a zip file (no end of central directory)") }
        guard eocd + 22 + u16(eocd + 20) <= bytes.count else { throw ZipError(.damaged, "the archive is truncated (its comment is cut)") }
        let count = u16(eocd + 10)
        let cdSize = u32(eocd + 12)
        let cdOffset = u32(eocd + 16)
        guard count != 0xFFFF, cdOffset != 0xFFFF_FFFF else { throw ZipError(.unsupported, "ZIP64 archives are not supported") }
        guard cdOffset + cdSize <= eocd else { throw ZipError(.damaged, "central directory lies outside the file (truncated?)") }
        var entries: [Entry] = []
        var p = cdOffset
        for _ in 0..<count {
            guard p + 46 <= eocd, u32(p) == 0x0201_4b50 else { throw ZipError(.damaged, "central directory entry at byte \(p) is damaged") }
            let nameLength = u16(p + 28), extraLength = u16(p + 30), commentLength = u16(p + 32)
            let end = p + 46 + nameLength + extraLength + commentLength
            guard end <= eocd else { throw ZipError(.damaged, "central directory entry at byte \(p) is truncated") }
            guard let path = String(validating: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self) else {
                throw ZipError(.damaged, "an entry name is not UTF-8")
            }
            let entry = Entry(path: path, method: UInt16(u16(p + 10)), flags: UInt16(u16(p + 8)), crc: UInt32(u32(p + 16)),
                              compressedSize: u32(p + 20), size: u32(p + 24), localHeaderOffset: u32(p + 42),
                              centralRecord: Array(bytes[p..<end]))
            guard entry.size != 0xFFFF_FFFF, entry.compressedSize != 0xFFFF_FFFF else {
                throw ZipError(.unsupported, "ZIP64 entry \(path) is not supported")
            }
            guard entry.localHeaderOffset < cdOffset else { throw ZipError(.damaged, "entry \(path) lies outside the file") }
            entries.append(entry)
            p = end
        }
        self.entries = entries
        self.centralDirectoryOffset = cdOffset
        self.endRecord = Array(bytes[eocd...])
    }

    /// The entry at `path`, if any.
    public func entry(_ path: String) -> Entry? { entries.first { $0.path == path } }

    /// Sum of the entries' uncompressed sizes, as their headers declare them (what unpacking
    /// everything would take; check it against a limit before unpacking a file from outside).
    public var declaredUncompressedSize: Int { entries.reduce(0) { $0 + $1.size } }

    /// The uncompressed bytes of `entry`, CRC-checked.
    /// - Throws: ``ZipError``.
    public func contents(of entry: Entry) throws(ZipError) -> [UInt8] {
        func fail(_ what: String, _ code: ZipError.Code = .damaged) -> ZipError { ZipError(code, "entry \(entry.path): \(what)") }
        guard entry.flags & 1 == 0 else { throw fail("encrypted entries are not supported", .unsupported) }
        let compressed = try rawData(of: entry)
        var output: [UInt8]
        switch entry.method {
        case 0:
            output = Array(compressed)
        case 8:
            guard let inflated = Deflate.inflate(compressed, size: entry.size) else {
                throw fail("deflate data is damaged")
            }
            output = inflated
        default:
            throw fail("compression method \(entry.method) is not supported (only stored and deflate)", .unsupported)
        }
        guard output.count == entry.size else { throw fail("size is \(output.count), expected \(entry.size)") }
        guard Deflate.crc32(output) == entry.crc else { throw fail("CRC mismatch (damaged data)") }
        return output
    }

    /// The compressed data of `entry`, as stored.
    /// - Throws: ``ZipError`` when the entry lies outside the archive.
    public func rawData(of entry: Entry) throws(ZipError) -> ArraySlice<UInt8> {
        let start = try dataStart(of: entry)
        guard start + entry.compressedSize <= bytes.count else { throw ZipError(.damaged, "entry \(entry.path): data is truncated") }
        return bytes[start..<(start + entry.compressedSize)]
    }

    /// Where `entry`'s compressed data starts (after its local header).
    func dataStart(of entry: Entry) throws(ZipError) -> Int {
        let o = entry.localHeaderOffset
        guard o + 30 <= bytes.count else { throw ZipError(.damaged, "entry \(entry.path): local header lies outside the file (truncated?)") }
        guard bytes[o] == 0x50, bytes[o + 1] == 0x4b, bytes[o + 2] == 0x03, bytes[o + 3] == 0x04 else {
            throw ZipError(.damaged, "entry \(entry.path): local header is damaged")
        }
        return o + 30 + (Int(bytes[o + 26]) | Int(bytes[o + 27]) << 8) + (Int(bytes[o + 28]) | Int(bytes[o + 29]) << 8)
    }
}
