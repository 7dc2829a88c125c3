/// Writes a copy of a ``ZipArchive`` in which some entries have new contents.
///
/// Everything else survives byte for byte: entries that are not replaced are copied as stored
/// (local header, compressed data, data descriptor), in their original order, with their names,
/// dates, extra fields, comments and compression; a replaced entry keeps its header fields and
/// its compression method (stored stays stored: ODF's `mimetype`, which must be first and
/// uncompressed, keeps both properties). Only sizes, CRCs and offsets change.
public enum ZipWriter {
    /// `archive` with the entries named in `replacements` (path → new uncompressed bytes).
    /// - Throws: ``ZipError`` when `archive` is damaged.
    public static func rewrite(_ archive: ZipArchive, replacing replacements: [String: [UInt8]]) throws(ZipError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(archive.bytes.count + replacements.values.reduce(0) { $0 + $1.count / 4 })
        // Local records in file order, each running to the next one (or the central directory),
        // so a data descriptor after an entry's data travels with it.
        let starts = archive.entries.map(\.localHeaderOffset).sorted()
        var newOffsets: [Int: Int] = [:]
        var newFields: [Int: (crc: UInt32, compressed: Int, size: Int, flags: UInt16)] = [:]
        if let first = starts.first, first > 0 { out += archive.bytes[0..<first] }  // a prefix (self-extractor stub)
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : archive.centralDirectoryOffset
            guard let entry = archive.entries.first(where: { $0.localHeaderOffset == start }) else { continue }
            newOffsets[start] = out.count
            guard let contents = replacements[entry.path] else {
                out += archive.bytes[start..<end]
                continue
            }
            let dataStart = try archive.dataStart(of: entry)
            let data = entry.method == 0 ? contents : Deflate.deflate(contents)
            let method: UInt16 = entry.method == 0 ? 0 : 8
            let crc = Deflate.crc32(contents)
            // Bit 3 (sizes in a trailing data descriptor) is cleared: the sizes are known now.
            let flags = entry.flags & ~0x0008
            var header = Array(archive.bytes[start..<dataStart])
            put16(&header, 6, Int(flags))
            put16(&header, 8, Int(method))
            put32(&header, 14, Int(crc))
            put32(&header, 18, data.count)
            put32(&header, 22, contents.count)
            out += header
            out += data
            newFields[start] = (crc, data.count, contents.count, flags)
        }
        let directoryStart = out.count
        for entry in archive.entries {
            var record = entry.centralRecord
            if let fields = newFields[entry.localHeaderOffset] {
                put16(&record, 8, Int(fields.flags))
                put16(&record, 10, entry.method == 0 ? 0 : 8)
                put32(&record, 16, Int(fields.crc))
                put32(&record, 20, fields.compressed)
                put32(&record, 24, fields.size)
            }
            put32(&record, 42, newOffsets[entry.localHeaderOffset] ?? entry.localHeaderOffset)
            out += record
        }
        var end = archive.endRecord
        put32(&end, 12, out.count - directoryStart)
        put32(&end, 16, directoryStart)
        out += end
        return out
    }

    /// A new archive holding `files` in order, each stored or deflated.
    public static func archive(_ files: [(path: String, contents: [UInt8])], deflated: Bool = true) -> [UInt8] {
        var out: [UInt8] = [], central: [UInt8] = []
        for (path, contents) in files {
            let name = Array(path.utf8)
            let data = deflated ? Deflate.deflate(contents) : contents
            let method = deflated ? 8 : 0
            var header = [UInt8](repeating: 0, count: 30)
            put32(&header, 0, 0x0403_4b50)
            put16(&header, 4, 20)
            put16(&header, 8, method)
            put16(&header, 12, 0x21)   // 1980-01-01, a fixed date: the same files give the same bytes
            put32(&header, 14, Int(Deflate.crc32(contents)))
            put32(&header, 18, data.count)
            put32(&header, 22, contents.count)
            put16(&header, 26, name.count)
            var record = [UInt8](repeating: 0, count: 46)
            put32(&record, 0, 0x0201_4b50)
            put16(&record, 4, 20)
            put16(&record, 6, 20)
            for k in 6..<28 { record[k + 2] = header[k] }   // flags, method, time, date, crc, sizes, name length
            put32(&record, 42, out.count)
            out += header + name + data
            central += record + name
        }
        var end = [UInt8](repeating: 0, count: 22)
        put32(&end, 0, 0x0605_4b50)
        put16(&end, 8, files.count)
        put16(&end, 10, files.count)
        put32(&end, 12, central.count)
        put32(&end, 16, out.count)
        return out + central + end
    }

    private static func put16(_ bytes: inout [UInt8], _ offset: Int, _ value: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8((value >> 8) & 0xFF)
    }

    private static func put32(_ bytes: inout [UInt8], _ offset: Int, _ value: Int) {
        put16(&bytes, offset, value & 0xFFFF)
        put16(&bytes, offset + 2, (value >> 16) & 0xFFFF)
    }
}
