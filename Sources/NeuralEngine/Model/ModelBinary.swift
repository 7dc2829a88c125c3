import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TranslationCore

/// Element type of a `model.bin` variable (CTranslate2's `DataType` ids).
public enum WeightType: UInt8, Sendable, CustomStringConvertible {
    case float32 = 0, int8 = 1, int16 = 2, int32 = 3, float16 = 4, bfloat16 = 5

    /// Bytes per element.
    public var size: Int {
        switch self {
        case .float32, .int32: return 4
        case .int16, .float16, .bfloat16: return 2
        case .int8: return 1
        }
    }

    public var description: String {
        switch self {
        case .float32: return "float32"
        case .int8: return "int8"
        case .int16: return "int16"
        case .int32: return "int32"
        case .float16: return "float16"
        case .bfloat16: return "bfloat16"
        }
    }
}

/// One variable of `model.bin`: its shape, element type and raw little-endian bytes.
public struct RawVariable: Sendable {
    /// The full name, e.g. `encoder/layer_0/ffn/linear_0/weight`.
    public let name: String
    /// Row-major shape; empty for scalars.
    public let shape: [Int]
    /// Element type.
    public let type: WeightType
    /// The raw bytes (count × type.size): a slice of the (memory-mapped) file, so loading does
    /// not copy; index it through `byte(_:)`, since a slice keeps the file's indices.
    public let bytes: Data

    /// Tells the kernel the variable's pages may be dropped (after conversion): for a mapped
    /// file they are clean and simply re-read if touched again, so this only lowers the peak
    /// memory of loading (the file and its converted copy are never both resident).
    public func dropPages() {
        guard mapped else { return }
        bytes.withUnsafeBytes { MappedFile.dropPages($0) }
    }

    /// Whether `bytes` lies in a read-only private file mapping.
    public let mapped: Bool

    /// The byte at offset `i` of this variable.
    public func byte(_ i: Int) -> UInt8 { bytes[bytes.startIndex + i] }

    /// Number of elements.
    public var count: Int { shape.reduce(1, *) }
}

/// The parsed content of a CTranslate2 `model.bin` (binary versions 2–6).
///
/// Format (see shared/reference/ctranslate2-engine-notes.md §2.2 and CTranslate2
/// `src/models/model.cc`): little-endian, no alignment; strings are u16 length (with NUL) + bytes.
public struct ModelBinary: Sendable {
    /// The newest binary version this reader understands.
    public static let newestVersion: UInt32 = 6

    /// The file's binary version.
    public let version: UInt32
    /// The spec name (e.g. `TransformerSpec`).
    public let specName: String
    /// The spec revision.
    public let specRevision: UInt32
    /// Variables by name, aliases resolved (an alias maps to the same variable value).
    public let variables: [String: RawVariable]

    /// Reads and parses the file at `url`.
    /// - Throws: ``TranslationError`` naming the file and what is wrong.
    public init(contentsOf url: URL) throws {
        let data: Data
        var mapped = false
        if let m = MappedFile.map(url.path) {
            data = m
            mapped = true
        } else {
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw TranslationError(.engineFailure, "Cannot read model file \(url.path): \(error.localizedDescription)")
            }
        }
        try self.init(data: data, fileName: url.path, mapped: mapped)
    }

    /// Parses `data`; `fileName` is used in error messages.
    public init(data: Data, fileName: String, mapped: Bool = false) throws {
        var reader = ByteReader(data: data, fileName: fileName)
        let version = try reader.u32("binary version")
        guard version >= 1 else {
            throw reader.failure("binary version \(version) is invalid")
        }
        guard version <= ModelBinary.newestVersion else {
            throw reader.failure("binary version \(version) is newer than the supported version \(ModelBinary.newestVersion); convert the model with CTranslate2 4.x")
        }
        guard version >= 2 else {
            throw reader.failure("binary version 1 (OpenNMT-tf variable names without a spec) is not supported; re-convert the model with a newer CTranslate2")
        }
        self.version = version
        specName = try reader.string("spec name")
        specRevision = try reader.u32("spec revision")
        let count = Int(try reader.u32("variable count"))
        var variables: [String: RawVariable] = [:]
        // A corrupt count must not become a huge allocation: each entry takes at least 8 bytes.
        variables.reserveCapacity(min(count, reader.remaining / 8))
        for index in 0..<count {
            let name = try reader.string("name of variable \(index)")
            let rank = Int(try reader.u8("rank of \(name)"))
            var shape: [Int] = []
            for _ in 0..<rank { shape.append(Int(try reader.u32("shape of \(name)"))) }
            // Sizes are checked for overflow: a corrupt shape is an error, not a crash (found by
            // `make fuzz`, Fuzz/regressions/model-shape-overflow).
            guard let elements = shape.reduce(Optional(1), { product, dimension in
                product.flatMap { p in let (r, o) = p.multipliedReportingOverflow(by: dimension); return o ? nil : r }
            }) else {
                throw reader.failure("variable \(name) has an impossible shape \(shape)")
            }
            let type: WeightType
            let byteCount: Int
            if version >= 4 {
                let id = try reader.u8("type of \(name)")
                guard let t = WeightType(rawValue: id) else {
                    throw reader.failure("variable \(name) has unknown type id \(id) (known: 0–5)")
                }
                type = t
                byteCount = Int(try reader.u32("byte count of \(name)"))
            } else {
                // Versions ≤ 3 store an item size and an element count; the type follows the size.
                let itemSize = Int(try reader.u8("item size of \(name)"))
                let numElements = Int(try reader.u32("element count of \(name)"))
                switch itemSize {
                case 4: type = .float32
                case 2: type = .int16
                case 1: type = .int8
                default: throw reader.failure("variable \(name) has unsupported item size \(itemSize)")
                }
                byteCount = numElements * itemSize
            }
            let expected = elements.multipliedReportingOverflow(by: type.size)
            guard !expected.overflow, byteCount == expected.partialValue else {
                throw reader.failure("variable \(name) of shape \(shape) and type \(type) declares \(byteCount) bytes, expected \(expected.partialValue)")
            }
            let bytes = try reader.slice(byteCount, "data of \(name)")
            variables[name] = RawVariable(name: name, shape: shape, type: type, bytes: bytes, mapped: mapped)
        }
        if version >= 3 {
            let aliasCount = Int(try reader.u32("alias count"))
            var aliases: [(String, String)] = []
            for _ in 0..<aliasCount {
                let alias = try reader.string("alias name")
                let target = try reader.string("alias target of \(alias)")
                aliases.append((alias, target))
            }
            // Aliases are resolved after all variables are read; `_scale`/`_zero` siblings follow
            // the alias too, or tied int8 embeddings would lose their scale (CTranslate2 model.cc).
            for (alias, target) in aliases {
                guard let value = variables[target] else {
                    throw reader.failure("alias \(alias) points to unknown variable \(target)")
                }
                variables[alias] = RawVariable(name: alias, shape: value.shape, type: value.type, bytes: value.bytes, mapped: mapped)
                for suffix in ["_scale", "_zero"] {
                    if let sibling = variables[target + suffix] {
                        variables[alias + suffix] = RawVariable(name: alias + suffix, shape: sibling.shape, type: sibling.type, bytes: sibling.bytes, mapped: mapped)
                    }
                }
            }
        }
        if reader.remaining > 0 {
            throw reader.failure("\(reader.remaining) unexpected bytes after the last entry")
        }
        self.variables = variables
    }
}

/// Reads little-endian fields from `model.bin`, failing with the file name and what was expected.
struct ByteReader {
    let data: Data
    let fileName: String
    private(set) var offset: Int = 0

    init(data: Data, fileName: String) {
        self.data = data
        self.fileName = fileName
    }

    var remaining: Int { data.count - offset }

    func failure(_ what: String) -> TranslationError {
        TranslationError(.engineFailure, "Malformed model file \(fileName): \(what) (at byte \(offset)).")
    }

    mutating func bytes(_ n: Int, _ what: String) throws -> [UInt8] {
        guard n >= 0, n <= remaining else {
            throw failure("file is truncated: \(what) needs \(n) bytes, \(remaining) left")
        }
        let start = data.startIndex + offset
        offset += n
        return [UInt8](data[start..<(start + n)])
    }

    /// `n` bytes as a slice of the underlying data (no copy).
    mutating func slice(_ n: Int, _ what: String) throws -> Data {
        guard n >= 0, n <= remaining else {
            throw failure("file is truncated: \(what) needs \(n) bytes, \(remaining) left")
        }
        let start = data.startIndex + offset
        offset += n
        return data[start..<(start + n)]
    }

    mutating func u8(_ what: String) throws -> UInt8 { try bytes(1, what)[0] }

    mutating func u16(_ what: String) throws -> UInt16 {
        let b = try bytes(2, what)
        return UInt16(b[0]) | UInt16(b[1]) << 8
    }

    mutating func u32(_ what: String) throws -> UInt32 {
        let b = try bytes(4, what)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }

    /// u16 length including the final NUL, then the bytes; the NUL is dropped.
    mutating func string(_ what: String) throws -> String {
        let length = Int(try u16("length of \(what)"))
        guard length > 0 else { throw failure("\(what) has length 0") }
        let b = try bytes(length, what)
        guard b.last == 0 else { throw failure("\(what) is not NUL-terminated") }
        guard let s = String(validating: b.dropLast(), as: UTF8.self) else {
            throw failure("\(what) is not valid UTF-8")
        }
        return s
    }
}

/// Read-only private mappings of model files.
enum MappedFile {
    /// Maps the file at `path`; nil when it cannot be mapped (the caller then reads it).
    static func map(_ path: String) -> Data? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in
            munmap(pointer, count)
        })
    }

    /// madvise(DONTNEED) on the whole pages inside `buffer`. Only for file mappings: on
    /// anonymous memory it would zero the pages, hence `RawVariable.mapped`.
    static func dropPages(_ buffer: UnsafeRawBufferPointer) {
        guard let start = buffer.baseAddress, buffer.count > 0 else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let last = (Int(bitPattern: start) + buffer.count) / page * page
        guard last > first, let p = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(p, last - first, Int32(MADV_DONTNEED))
    }
}
