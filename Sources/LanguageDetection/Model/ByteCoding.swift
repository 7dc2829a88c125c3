import CZlib

/// Appends little-endian numbers, LEB128 varints and raw bytes: the writing half of the model
/// file's codec (``ByteReader`` reads it back).
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func f32(_ value: Float) { u32(value.bitPattern) }
    mutating func raw<S: Sequence<UInt8>>(_ values: S) { bytes.append(contentsOf: values) }

    /// Unsigned LEB128: seven bits a byte, low bits first, the high bit set on all but the last.
    mutating func varint(_ value: UInt32) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}

/// Sequential reads with bounds checks: every read of a damaged file fails with
/// ``ModelFormatError`` instead of trapping.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw ModelFormatError("truncated") }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    @inline(__always) mutating func u8() throws -> UInt8 {
        guard offset < bytes.count else { throw ModelFormatError("truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u32() throws -> UInt32 {
        let four = try bytes(4)
        return four.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func f32() throws -> Float { Float(bitPattern: try u32()) }

    /// See ``ByteWriter/varint(_:)``; at most five bytes, and the value must fit 32 bits.
    @inline(__always) mutating func varint() throws -> UInt32 {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            let byte = try u8()
            guard shift < 32, shift < 28 || byte < 0x10 else { throw ModelFormatError("varint overflow") }
            value |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}

/// zlib (Debian's libz, through the CZlib system library): the model file is a zlib stream,
/// inflated once at load.
enum Zlib {
    /// `bytes` deflated at the best compression (only the trainer writes models).
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { compress2(out.baseAddress, &size, $0.baseAddress, uLong(bytes.count), 9) }
        }
        precondition(status == Z_OK, "zlib compress2 failed (\(status))")
        return Array(out.prefix(Int(size)))
    }

    /// Inflates a zlib stream that must hold exactly `size` bytes and end where `bytes` end
    /// (zlib verifies its Adler-32 checksum, so a damaged file is refused here).
    static func decompress<C: Collection<UInt8>>(_ bytes: C, size: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(1, size))
        var length = uLongf(size)
        let input = Array(bytes)
        var consumed = uLong(input.count)
        let status = out.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { uncompress2(out.baseAddress, &length, $0.baseAddress, &consumed) }
        }
        guard status == Z_OK, Int(length) == size, Int(consumed) == input.count else {
            throw ModelFormatError("damaged zlib stream (\(status))")
        }
        return size == 0 ? [] : out
    }
}
