import Foundation

/// The detector's model, as `make detector-profiles` trains it and the build embeds it
/// (Sources/LanguageDetection/Data/detector.model; format in ``DetectorModel/init(bytes:)``).
/// Immutable once loaded, so one instance serves every thread.
///
/// Per language it holds
/// - a character model: a 4th-order Markov chain over the scalars of framed words, with
///   absolute-discount backoff (``grams``: per n-gram and language, the log-probability of its
///   last scalar after the others, and the log back-off weight of the n-gram used as a context);
/// - a word model: the log-frequency of its most frequent words (``words``), with the share of
///   running text outside that list (``Language/logOutOfVocabulary``), which the character model
///   then spells out. A word's probability is `(1-β)·f(w) + β·P_char(w)`.
///
/// The decision rule on top (temperatures per text length, calibration of the posterior) is
/// learned by the trainer on held-back lines and stored in ``parameters``.
struct DetectorModel: Sendable, Equatable {
    /// One language of the model.
    struct Language: Sendable, Equatable {
        /// BCP-47 code as the detector reports it ("en", "zh-Hant").
        var code: String
        /// The scripts its text is written in; a text is scored only against languages of its
        /// dominant script.
        var scripts: [WritingScript]
        /// log β: the share of running words outside the word list.
        var logOutOfVocabulary: Float
        /// log(1 - β).
        var logInVocabulary: Float
        /// Log-probability of a scalar the language's training text never had.
        var logUnseenScalar: Float
    }

    /// The learned decision rule.
    struct Parameters: Sendable, Equatable {
        /// Divisor of the summed log-likelihoods before the softmax, by the text's word count:
        /// entry `i` for `i + 1` words, the last entry for that many and more. Words in a text
        /// are not independent, so raw naive-Bayes posteriors are too sharp.
        var temperatures: [Float]
        /// Probability of being right for a posterior in bin `i` of `calibration.count` equal
        /// bins of 0...1 (isotonic: never decreasing), measured on held-back lines.
        var calibration: [Float]
    }

    /// Scale of the quantized log-probabilities: a byte `q` stands for `-q / scale` nats.
    static let gramScale: Float = 12
    /// Scale of the quantized word log-frequencies.
    static let wordScale: Float = 8

    let languages: [Language]
    var parameters: Parameters
    /// N-gram → (language, −12·log P(last scalar | the others), −12·log back-off weight).
    let grams: PostingTable
    /// Word → (language, −8·log frequency within the language's word list).
    let words: PostingTable
    /// The languages of each script, in model order (derived from ``languages``).
    let languagesByScript: [WritingScript: [Int]]

    init(languages: [Language], parameters: Parameters, grams: PostingTable, words: PostingTable) {
        self.languages = languages
        self.parameters = parameters
        self.grams = grams
        self.words = words
        var byScript: [WritingScript: [Int]] = [:]
        for (index, language) in languages.enumerated() {
            for script in Set(language.scripts) { byScript[script, default: []].append(index) }
        }
        self.languagesByScript = byScript
    }

    /// Bytes in memory, for the figure the benchmark reports.
    var byteCount: Int { grams.byteCount + words.byteCount }
}

// MARK: - The file format

extension DetectorModel {
    /// The file's magic and version; a model of another version is refused.
    static let magic: [UInt8] = Array("GLDM".utf8)
    static let version: UInt32 = 1

    /// Parses a model file: little-endian, in this order:
    /// `GLDM`, u32 version, u32 language count, per language (u8 code length, code, u8 script
    /// count, 4-byte script subtags, f32 log β, f32 log(1−β), f32 unseen-scalar log-probability),
    /// u32 + f32s temperatures, u32 + f32s calibration, then the n-gram and the word table, each
    /// u32 rows, u32 postings, u8 values per posting, u32 keys (ascending), u8 postings per row,
    /// u8 languages, u8 values.
    /// - Throws: ``ModelFormatError`` when the bytes are not such a file.
    init(bytes: [UInt8]) throws {
        var reader = ByteReader(bytes: bytes)
        guard try reader.bytes(4) == Self.magic else { throw ModelFormatError("not a detector model (magic)") }
        let version = try reader.u32()
        guard version == Self.version else { throw ModelFormatError("model version \(version), expected \(Self.version)") }
        var languages: [Language] = []
        for _ in 0..<(try reader.u32()) {
            let code = String(decoding: try reader.bytes(Int(try reader.u8())), as: UTF8.self)
            var scripts: [WritingScript] = []
            for _ in 0..<(try reader.u8()) {
                let tag = String(decoding: try reader.bytes(4), as: UTF8.self)
                guard let script = WritingScript(rawValue: tag) else { throw ModelFormatError("unknown script \(tag)") }
                scripts.append(script)
            }
            languages.append(Language(code: code, scripts: scripts, logOutOfVocabulary: try reader.f32(),
                                      logInVocabulary: try reader.f32(), logUnseenScalar: try reader.f32()))
        }
        guard languages.count <= 255 else { throw ModelFormatError("more than 255 languages") }
        let temperatures = try (0..<(try reader.u32())).map { _ in try reader.f32() }
        let calibration = try (0..<(try reader.u32())).map { _ in try reader.f32() }
        guard !temperatures.isEmpty, !calibration.isEmpty else { throw ModelFormatError("no decision parameters") }
        let grams = try Self.readTable(&reader, languages: languages.count)
        let words = try Self.readTable(&reader, languages: languages.count)
        guard reader.isAtEnd else { throw ModelFormatError("trailing bytes") }
        self.init(languages: languages, parameters: Parameters(temperatures: temperatures, calibration: calibration),
                  grams: grams, words: words)
    }

    /// The model as a file (the inverse of ``init(bytes:)``).
    func serialized() -> [UInt8] {
        var out = Self.magic
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        func f32(_ value: Float) { u32(value.bitPattern) }
        u32(Self.version)
        u32(UInt32(languages.count))
        for language in languages {
            out.append(UInt8(language.code.utf8.count))
            out.append(contentsOf: language.code.utf8)
            out.append(UInt8(language.scripts.count))
            for script in language.scripts { out.append(contentsOf: script.rawValue.utf8) }
            f32(language.logOutOfVocabulary)
            f32(language.logInVocabulary)
            f32(language.logUnseenScalar)
        }
        u32(UInt32(parameters.temperatures.count))
        parameters.temperatures.forEach(f32)
        u32(UInt32(parameters.calibration.count))
        parameters.calibration.forEach(f32)
        for table in [grams, words] {
            u32(UInt32(table.keys.count))
            u32(UInt32(table.languages.count))
            out.append(UInt8(table.valuesPerPosting))
            table.keys.forEach(u32)
            for row in table.keys.indices { out.append(UInt8(table.starts[row + 1] - table.starts[row])) }
            out.append(contentsOf: table.languages)
            out.append(contentsOf: table.values)
        }
        return out
    }

    private static func readTable(_ reader: inout ByteReader, languages: Int) throws -> PostingTable {
        let rows = Int(try reader.u32()), postings = Int(try reader.u32()), width = Int(try reader.u8())
        let keys = try reader.array(UInt32.self, count: rows)
        var starts = [UInt32](repeating: 0, count: rows + 1)
        for (row, count) in try reader.bytes(rows).enumerated() { starts[row + 1] = starts[row] + UInt32(count) }
        let owners = try reader.bytes(postings)
        let values = try reader.bytes(postings * width)
        // Validate what indexing relies on, so a damaged file fails here and not in a lookup.
        guard starts.last == UInt32(postings), zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }),
              owners.allSatisfy({ Int($0) < languages }) else {
            throw ModelFormatError("inconsistent table")
        }
        return PostingTable(keys: keys, starts: starts, languages: owners, values: values, valuesPerPosting: width)
    }
}

/// A model file that cannot be read.
struct ModelFormatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "detector model: " + description }
}

/// Sequential little-endian reads with bounds checks.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else { throw ModelFormatError("truncated") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func u8() throws -> UInt8 { try bytes(1)[0] }
    mutating func u32() throws -> UInt32 { try array(UInt32.self, count: 1)[0] }
    mutating func f32() throws -> Float { Float(bitPattern: try u32()) }

    mutating func array<T: FixedWidthInteger>(_: T.Type, count: Int) throws -> [T] {
        let size = MemoryLayout<T>.size
        guard count >= 0, offset + count * size <= bytes.count else { throw ModelFormatError("truncated") }
        let start = offset
        offset += count * size
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: start + $0 * size, as: T.self)) }
        }
    }
}
