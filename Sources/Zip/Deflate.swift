import CZlib

/// Raw deflate (no zlib header, as zip entries store it) and CRC-32, over Debian's zlib.
enum Deflate {
    /// Inflates `input` into exactly `size` bytes; nil when the data is damaged or longer.
    static func inflate(_ input: ArraySlice<UInt8>, size: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: max(size, 1))
        var stream = z_stream()
        // −15: raw deflate data without a zlib header, as stored in zip entries.
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        let status = finish(&stream, Array(input), into: &output) { CZlib.inflate($0, Z_FINISH) }
        // Z_BUF_ERROR with the output full means the data holds more than `size` bytes.
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Deflates `input` at zlib's default level (6), as most zip writers do.
    static func deflate(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        let status = finish(&stream, input, into: &output) { CZlib.deflate($0, Z_FINISH) }
        // deflateBound guarantees room for the whole stream in one call.
        precondition(status == Z_STREAM_END, "zlib deflate did not finish (status \(status))")
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// The CRC-32 zip uses.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// Points `stream` at the whole of `input` and `output` and makes the one `Z_FINISH` call
    /// (`call`); both buffers are sized by the caller so that one call is enough.
    private static func finish(_ stream: inout z_stream, _ input: [UInt8], into output: inout [UInt8],
                               _ call: (UnsafeMutablePointer<z_stream>) -> Int32) -> Int32 {
        var input = input
        return input.withUnsafeMutableBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = inp.baseAddress
                stream.avail_in = uInt(inp.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return call(&stream)
            }
        }
    }
}
