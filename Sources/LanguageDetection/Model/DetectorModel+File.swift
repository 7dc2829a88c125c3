/// The model file: what the trainer writes (``DetectorModel/Content``) and how it is coded.
///
/// Layout: `GLDM`, u32 version, u32 payload size, then the payload as one zlib stream. The
/// payload, little-endian: u32 language count, per language (u8 code length, code, u8 script
/// count, 4-byte script subtags, f32 log β, f32 unseen-scalar log-probability, f32 log prior);
/// u32 + f32s each of temperatures, prior weights, calibration and per-language logit offsets
/// (none or one per language); f32 scales (conditional,
/// back-off, word); u8 bits of a word key; then the two tables as sections, each a u32 byte length and its bytes, so
/// that values of one kind sit together and compress together:
///
/// - n-grams: u32 rows, u32 postings, an alphabet section (u32 scalar count, varint deltas of
///   the ascending scalars), and per row in lexicographic order of the n-grams (each prefix is
///   a row before its extensions, as in a trie walked depth first) its order (u8), the
///   alphabet index of its last scalar as a varint gap from its previous sibling's, its posting
///   count (u8), then per posting its language, conditional byte and back-off byte, each kind
///   in its own section; a unigram's languages as gaps (the first absolute, then the gap minus
///   one), a longer n-gram's as gaps between positions in its prefix's languages; back-off
///   bytes as their difference (mod 256) from the ones the conditionals predict (``GramRows``);
/// - words: u32 rows, u32 postings, per row (ascending key, ``PostingTable/reduce(_:bits:)``) the key's varint gap, the
///   posting count, languages as above, gain bytes.
///
/// The n-grams' keys are not stored: the loader hashes the scalars, walking the trie, so the
/// file holds a scalar index per n-gram instead of a 32-bit key.
extension DetectorModel {
    static let magic: [UInt8] = Array("GLDM".utf8)
    /// A model of another version is refused (the embedded file always matches the code).
    static let version: UInt32 = 4

    /// What a model file holds, row by row: the trainer's output and the codec's input.
    struct Content: Equatable {
        struct GramPosting: Equatable {
            var language: UInt8, conditional: UInt8, backOff: UInt8
        }
        struct WordPosting: Equatable {
            var language: UInt8, gain: UInt8
        }
        var languages: [Language]
        var parameters: Parameters
        var scales: Scales
        /// N-grams in lexicographic order of their scalars' values; every prefix of an n-gram
        /// is a row before it. Postings by ascending language.
        var grams: [(scalars: [Unicode.Scalar], postings: [GramPosting])]
        /// Words by ascending reduced key (``PostingTable/reduce(_:bits:)`` of ``TextFeatures/wordKey(_:)``).
        var words: [(key: UInt32, postings: [WordPosting])]
        /// Bits of a word key (``PostingTable/keyBits``).
        var wordKeyBits = 32

        static func == (a: Content, b: Content) -> Bool {
            a.languages == b.languages && a.parameters == b.parameters && a.scales == b.scales
                && a.grams.elementsEqual(b.grams) { $0.scalars == $1.scalars && $0.postings == $1.postings }
                && a.words.elementsEqual(b.words) { $0.key == $1.key && $0.postings == $1.postings } && a.wordKeyBits == b.wordKeyBits
        }
    }

    /// The run-time model of `content`, built directly (the trainer's path; the loader's path,
    /// through the file, must give an equal model).
    init(content: Content) {
        let gramRows = content.gramRows()
        let grams = gramRows.table(backOffs: gramRows.seconds)
        var words = PostingTable.Builder(valuesPerPosting: 1, keyBits: content.wordKeyBits, rows: content.words.count)
        for row in content.words {
            words.row(reduced: row.key, postings: row.postings.count)
            for p in row.postings { words.posting(p.language, p.gain) }
        }
        self.init(languages: content.languages, parameters: content.parameters, scales: content.scales,
                  grams: grams, words: words.build())
    }

    /// Reads a model file.
    /// - Throws: ``ModelFormatError`` when the bytes are not such a file, or are damaged.
    init(bytes: [UInt8]) throws {
        var header = ByteReader(bytes)
        guard Array(try header.bytes(4)) == Self.magic else { throw ModelFormatError("not a detector model (magic)") }
        let version = try header.u32()
        guard version == Self.version else { throw ModelFormatError("model version \(version), expected \(Self.version)") }
        let size = Int(try header.u32())
        guard size <= 1 << 30 else { throw ModelFormatError("payload too large") }
        var reader = ByteReader(try Zlib.decompress(bytes[header.offset...], size: size))

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
                                      logUnseenScalar: try reader.f32(), logPrior: try reader.f32()))
        }
        guard (1...255).contains(languages.count) else { throw ModelFormatError("\(languages.count) languages") }
        func floats(allowingNone: Bool = false) throws -> [Float] {
            let count = Int(try reader.u32())
            guard (1...1024).contains(count) || (allowingNone && count == 0) else { throw ModelFormatError("bad parameter count") }
            return try (0..<count).map { _ in try reader.f32() }
        }
        let parameters = Parameters(temperatures: try floats(), priorWeights: try floats(), calibration: try floats(),
                                    offsets: try floats(allowingNone: true))
        // Why: the decision rule indexes the offsets by language, so a count other than the
        // languages' would read past them.
        guard parameters.offsets.isEmpty || parameters.offsets.count == languages.count else {
            throw ModelFormatError("\(parameters.offsets.count) offsets for \(languages.count) languages")
        }
        let scales = Scales(conditional: try reader.f32(), backOff: try reader.f32(), word: try reader.f32())
        guard [scales.conditional, scales.backOff, scales.word].allSatisfy({ $0.isFinite && $0 > 0 }) else {
            throw ModelFormatError("bad scales")
        }
        let wordKeyBits = Int(try reader.u8())
        guard (16...32).contains(wordKeyBits) else { throw ModelFormatError("bad word key bits") }
        let grams = try Self.readGrams(&reader, languages: languages.count, scales: scales)
        let words = try Self.readWords(&reader, languages: languages.count, keyBits: wordKeyBits)
        guard reader.isAtEnd else { throw ModelFormatError("trailing bytes") }
        self.init(languages: languages, parameters: parameters, scales: scales, grams: grams, words: words)
    }
}

// MARK: - Writing

extension DetectorModel.Content {
    /// The n-gram rows with their back-off bytes as they are.
    func gramRows() -> GramRows {
        var rows = GramRows(rows: grams.count, postings: grams.reduce(0) { $0 + $1.postings.count })
        for row in grams {
            rows.row(TextFeatures.gramKey(row.scalars), order: row.scalars.count)
            for p in row.postings { rows.posting(p.language, p.conditional, p.backOff) }
        }
        return rows
    }

    /// The model file of this content (the inverse of ``DetectorModel/init(bytes:)``).
    func serialized() -> [UInt8] {
        var out = ByteWriter()
        writeHeader(&out)
        writeGrams(&out)
        writeWords(&out)
        return Self.file(payload: out.bytes)
    }

    /// The file around a payload: magic, version, payload size, the zlib stream.
    static func file(payload: [UInt8]) -> [UInt8] {
        var file = ByteWriter()
        file.raw(DetectorModel.magic)
        file.u32(DetectorModel.version)
        file.u32(UInt32(payload.count))
        file.raw(Zlib.compress(payload))
        return file.bytes
    }

    /// The payload's head: languages, decision rule, scales and word key bits (everything
    /// before the tables; its length depends only on the codes, scripts and parameter counts).
    func writeHeader(_ out: inout ByteWriter) {
        out.u32(UInt32(languages.count))
        for language in languages {
            out.u8(UInt8(language.code.utf8.count))
            out.raw(language.code.utf8)
            out.u8(UInt8(language.scripts.count))
            for script in language.scripts { out.raw(script.rawValue.utf8) }
            out.f32(language.logOutOfVocabulary)
            out.f32(language.logUnseenScalar)
            out.f32(language.logPrior)
        }
        for values in [parameters.temperatures, parameters.priorWeights, parameters.calibration, parameters.offsets] {
            out.u32(UInt32(values.count))
            values.forEach { out.f32($0) }
        }
        [scales.conditional, scales.backOff, scales.word].forEach { out.f32($0) }
        out.u8(UInt8(wordKeyBits))
    }

    private func writeGrams(_ out: inout ByteWriter) {
        let alphabet = Array(Set(grams.flatMap(\.scalars).map(\.value))).sorted()
        let position = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, $0) })
        out.u32(UInt32(grams.count))
        out.u32(UInt32(grams.reduce(0) { $0 + $1.postings.count }))
        var letters = ByteWriter()
        letters.u32(UInt32(alphabet.count))
        var previous: UInt32 = 0
        for scalar in alphabet { letters.varint(scalar - previous); previous = scalar }
        var orders = ByteWriter(), siblings = ByteWriter()
        // lastChild[d]: alphabet index of the last row of order d under the current parent.
        var lastChild = [Int](repeating: -1, count: TextFeatures.maxOrder + 2)
        for row in grams {
            let order = row.scalars.count
            precondition(order >= 1 && order <= TextFeatures.maxOrder && row.postings.count <= 255)
            let index = position[row.scalars[order - 1].value]!
            orders.u8(UInt8(order))
            siblings.varint(UInt32(index - lastChild[order] - 1))
            lastChild[order] = index
            lastChild[order + 1] = -1
        }
        // The trainer's rows are a trie of kept prefixes by construction (Assembly.swift).
        let derived = try! gramRows().derivedBackOffs(scales: scales)
        var posting = 0
        var postings = Postings()
        // path[d]: the languages of the latest row of order d, the prefix of the next deeper row.
        var path = [[UInt8]](repeating: [], count: TextFeatures.maxOrder + 1)
        for row in grams {
            let order = row.scalars.count
            path[order] = row.postings.map(\.language)
            postings.add(path[order], among: order >= 2 ? path[order - 1] : nil)
            postings.values.raw(row.postings.map(\.conditional))
            for p in row.postings {
                postings.second.u8(p.backOff &- derived[posting])
                posting += 1
            }
        }
        for section in [letters, orders, siblings, postings.counts, postings.languages, postings.values, postings.second] {
            out.u32(UInt32(section.bytes.count))
            out.raw(section.bytes)
        }
    }

    private func writeWords(_ out: inout ByteWriter) {
        out.u32(UInt32(words.count))
        out.u32(UInt32(words.reduce(0) { $0 + $1.postings.count }))
        var keys = ByteWriter()
        var previous: UInt32 = 0
        for row in words { keys.varint(row.key - previous); previous = row.key }
        var postings = Postings()
        for row in words {
            postings.add(row.postings.map(\.language))
            postings.values.raw(row.postings.map(\.gain))
        }
        for section in [keys, postings.counts, postings.languages, postings.values] {
            out.u32(UInt32(section.bytes.count))
            out.raw(section.bytes)
        }
    }

    /// The posting sections of a table being written.
    private struct Postings {
        var counts = ByteWriter(), languages = ByteWriter(), values = ByteWriter(), second = ByteWriter()

        /// A row's languages, as gaps between language indices, or, for an n-gram, between
        /// positions in its prefix's languages (`parent`: an n-gram's languages are a subset of
        /// its prefix's, and the positions are smaller numbers, which compress better).
        mutating func add(_ owners: [UInt8], among parent: [UInt8]? = nil) {
            counts.u8(UInt8(owners.count))
            var previous = -1
            for owner in owners {
                let value = parent.map { $0.firstIndex(of: owner)! } ?? Int(owner)
                languages.u8(UInt8(value - previous - 1))
                previous = value
            }
        }
    }
}

// MARK: - Reading

extension DetectorModel {
    /// The next section of the payload as a reader of its own.
    private static func section(_ reader: inout ByteReader) throws -> ByteReader {
        ByteReader(Array(try reader.bytes(Int(try reader.u32()))))
    }

    /// Reads one row's posting count and languages (see ``Content/Postings/add(_:among:)``),
    /// validating what lookups rely on: 1...255 postings, languages ascending and below
    /// `languages` (or positions within `parent`).
    @inline(__always)
    private static func owners(_ counts: inout ByteReader, _ owners: inout ByteReader, languages: Int,
                               among parent: [UInt8]? = nil, into buffer: inout [UInt8]) throws {
        let count = Int(try counts.u8())
        guard count > 0 else { throw ModelFormatError("empty row") }
        buffer.removeAll(keepingCapacity: true)
        let limit = parent?.count ?? languages
        var previous = -1
        for _ in 0..<count {
            let value = previous + 1 + Int(try owners.u8())
            guard value < limit else { throw ModelFormatError("language index out of range") }
            buffer.append(parent?[value] ?? UInt8(value))
            previous = value
        }
    }

    private static func readGrams(_ reader: inout ByteReader, languages: Int, scales: Scales) throws -> PostingTable {
        let rows = Int(try reader.u32()), postings = Int(try reader.u32())
        var letters = try section(&reader)
        var alphabet: [UInt32] = []
        var previous: UInt32 = 0
        for _ in 0..<(try letters.u32()) {
            let (value, overflow) = previous.addingReportingOverflow(try letters.varint())
            guard !overflow, alphabet.isEmpty || value > previous, Unicode.Scalar(value) != nil else {
                throw ModelFormatError("bad alphabet")
            }
            alphabet.append(value)
            previous = value
        }
        var orders = try section(&reader), siblings = try section(&reader), counts = try section(&reader)
        var owners = try section(&reader), values = try section(&reader), residuals = try section(&reader)
        guard rows <= 1 << 26, postings <= 1 << 28 else { throw ModelFormatError("n-gram table too large") }
        var table = GramRows(rows: rows, postings: postings)
        // The trie walk: hashes[d] is the key of the current row's prefix of order d.
        var hashes = [UInt64](repeating: TextFeatures.gramKey([Unicode.Scalar]()), count: TextFeatures.maxOrder + 1)
        var lastChild = [Int](repeating: -1, count: TextFeatures.maxOrder + 2)
        var previousOrder = 0
        var path = [[UInt8]](repeating: [], count: TextFeatures.maxOrder + 1)
        for _ in 0..<rows {
            let order = Int(try orders.u8())
            guard order >= 1, order <= TextFeatures.maxOrder, order <= previousOrder + 1 else { throw ModelFormatError("bad n-gram order") }
            let index = lastChild[order] + 1 + Int(try siblings.varint())
            guard index < alphabet.count else { throw ModelFormatError("bad n-gram scalar") }
            lastChild[order] = index
            lastChild[order + 1] = -1
            previousOrder = order
            hashes[order] = TextFeatures.extend(hashes[order - 1], with: alphabet[index])
            try Self.owners(&counts, &owners, languages: languages, among: order >= 2 ? path[order - 1] : nil, into: &path[order])
            table.row(hashes[order], order: order)
            for owner in path[order] { table.posting(owner, try values.u8(), try residuals.u8()) }
        }
        guard [orders, siblings, counts, owners, values, residuals].allSatisfy(\.isAtEnd), table.postingCount == postings else {
            throw ModelFormatError("inconsistent n-gram table")
        }
        let derived = try table.derivedBackOffs(scales: scales)
        return table.table(backOffs: zip(derived, table.seconds).map { $0 &+ $1 })
    }

    private static func readWords(_ reader: inout ByteReader, languages: Int, keyBits: Int) throws -> PostingTable {
        let rows = Int(try reader.u32()), postings = Int(try reader.u32())
        var keys = try section(&reader), counts = try section(&reader), owners = try section(&reader), gains = try section(&reader)
        var table = PostingTable.Builder(valuesPerPosting: 1, keyBits: keyBits, rows: rows, postings: postings)
        var key: UInt32 = 0
        var buffer: [UInt8] = []
        for row in 0..<rows {
            let (next, overflow) = key.addingReportingOverflow(try keys.varint())
            guard !overflow, row == 0 || next > key, keyBits == 32 || next >> keyBits == 0 else {
                throw ModelFormatError("word keys not ascending")
            }
            key = next
            try Self.owners(&counts, &owners, languages: languages, into: &buffer)
            table.row(reduced: key, postings: buffer.count)
            for owner in buffer { table.posting(owner, try gains.u8()) }
        }
        guard [keys, counts, owners, gains].allSatisfy(\.isAtEnd), table.postingCount == postings else {
            throw ModelFormatError("inconsistent word table")
        }
        return table.build()
    }
}
