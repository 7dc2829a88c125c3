import Testing
import Foundation
@testable import LanguageDetection

/// The model file and its tables: what the build embeds must read back exactly, and a damaged
/// file must be refused, never misread.
@Suite struct DetectorModelTests {
    typealias Content = DetectorModel.Content

    static func tiny() -> Content {
        func gram(_ text: String, _ postings: [(UInt8, UInt8, UInt8)]) -> (scalars: [Unicode.Scalar], postings: [Content.GramPosting]) {
            (Array(text.unicodeScalars), postings.map { .init(language: $0.0, conditional: $0.1, backOff: $0.2) })
        }
        return Content(
            languages: [
                .init(code: "en", scripts: [.latin], logOutOfVocabulary: -2, logUnseenScalar: -12, logPrior: -1),
                .init(code: "ja", scripts: [.han, .hiragana, .katakana], logOutOfVocabulary: -1, logUnseenScalar: -11, logPrior: -3),
            ],
            parameters: .init(temperatures: [3, 2, 1], priorWeights: [0.5, 0.25], calibration: [0.1, 0.5, 0.9], offsets: [0.25, -0.5]),
            scales: .init(conditional: 12, backOff: 10, word: 8),
            // A trie in depth-first order: every prefix before its extensions.
            grams: [gram("_", [(0, 9, 1), (1, 8, 2)]), gram("_h", [(0, 30, 3)]), gram("_hi", [(0, 40, 0)]),
                    gram("h", [(0, 50, 4)]), gram("hi", [(0, 20, 0)]), gram("hu", [(0, 3, 0)]), gram("i", [(0, 60, 0)]),
                    gram("東", [(1, 70, 5)]), gram("東京", [(1, 10, 0)])],
            words: [(3, [.init(language: 1, gain: 200)]), (77, [.init(language: 0, gain: 5), .init(language: 1, gain: 6)])])
    }

    /// The loader's path (through the file) and the trainer's path (straight from the rows)
    /// build the same tables, and every row is found under its n-gram's or word's key.
    @Test func fileReadsBackAsTheContentsModel() throws {
        let content = Self.tiny()
        let model = try DetectorModel(bytes: content.serialized())
        #expect(model == DetectorModel(content: content))
        #expect(model.languages == content.languages && model.parameters == content.parameters && model.scales == content.scales)
        for row in content.grams {
            #expect(model.grams.postings(model.grams.row(TextFeatures.gramKey(row.scalars))).map { [$0.language, $0.value, $0.second] }
                == row.postings.map { [$0.language, $0.conditional, $0.backOff] })
        }
        // The file stores back-off weights as differences from what the continuations leave:
        // -log(1 - Σ e^(-q/12)) · 10, per posting, 0 where no continuation of its language is kept.
        #expect(try content.gramRows().derivedBackOffs(scales: content.scales) == [1, 0, 0, 0, 34, 0, 0, 0, 6, 0])
        for row in content.words {
            #expect(model.words.postings(model.words.row(UInt64(row.key))).map { [$0.language, $0.value] } == row.postings.map { [$0.language, $0.gain] })
        }
        #expect(model.grams.row(TextFeatures.gramKey("x".unicodeScalars)) == -1)
    }

    @Test func embeddedModelIsWellFormed() {
        let model = DetectorModel.embedded
        #expect(model.languages.count >= 80)
        #expect(model.parameters.calibration == model.parameters.calibration.sorted(), "calibration must be monotone")
        #expect(Set(model.languages.map(\.code)).count == model.languages.count)
        #expect(model.grams.rowCount > 100_000 && model.words.rowCount > 100_000)
    }

    /// The budget Sources/LanguageDetection/Data/SOURCES.md states for the committed file.
    @Test func embeddedModelFileIsWithinItsSizeBudget() {
        let base64 = EmbeddedDataFiles.base64["detector.model"]!.utf8CodeUnitCount
        #expect(base64 / 4 * 3 <= 5_000_000)
    }

    @Test func damagedFilesAreRefused() throws {
        let bytes = Self.tiny().serialized()
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: Array(bytes.dropLast())) }
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: bytes + [0]) }
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: [UInt8]("GLDX".utf8) + bytes.dropFirst(4)) }
        var version = bytes
        version[4] = 9
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: version) }
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: []) }
        // A flipped bit anywhere in the compressed payload fails zlib's checks (or falls in
        // the final byte's padding, and then reads as the same model): never a different model.
        let original = try DetectorModel(bytes: bytes)
        for offset in 12..<bytes.count {
            var flipped = bytes
            flipped[offset] ^= 0x10
            if let model = try? DetectorModel(bytes: flipped) { #expect(model == original, "byte \(offset)") }
        }
    }

    /// The logit offsets are one per language or none: any other count is refused, since the
    /// decision rule indexes them by language.
    @Test func offsetsMustMatchTheLanguages() throws {
        var content = Self.tiny()
        content.parameters.offsets = []
        #expect(try DetectorModel(bytes: content.serialized()).parameters.offsets.isEmpty)
        content.parameters.offsets = [1]
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: content.serialized()) }
    }

    /// An offset moves a language's posterior as a log-odds term: +log 3 for one of two equally
    /// scored languages makes it three times as likely.
    @Test func offsetsShiftThePosteriors() throws {
        var model = try DetectorModel(bytes: Self.tiny().serialized())
        model.parameters.priorWeights = [0]
        model.parameters.offsets = [log(3), 0]
        let ranked = model.posteriors(scores: [-5, -5], candidates: [0, 1], words: 1)
        #expect(ranked.map(\.language) == [0, 1])
        #expect(abs(ranked[0].posterior - 0.75) < 1e-6)
    }

    /// A payload that zlib accepts but that is not a model (cut short, or with bytes after the
    /// tables) is refused by the parser's own checks.
    @Test func inconsistentPayloadsAreRefused() throws {
        let bytes = Self.tiny().serialized()
        var header = ByteReader(bytes)
        _ = try header.bytes(8)
        let size = Int(try header.u32())
        let payload = try Zlib.decompress(bytes[header.offset...], size: size)
        for altered in [Array(payload.dropLast()), payload + [0], Array(payload.prefix(payload.count / 2))] {
            var file = ByteWriter()
            file.raw(bytes.prefix(8))
            file.u32(UInt32(altered.count))
            file.raw(Zlib.compress(altered))
            #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: file.bytes) }
        }
    }

    /// Back-off weights are derived from a context's continuations in the same language, so an
    /// n-gram whose prefix its language lacks is a damaged file, not a model.
    @Test func nGramWithoutItsPrefixIsRefused() {
        var rows = GramRows(rows: 2)
        rows.row(TextFeatures.gramKey("h".unicodeScalars), order: 1)
        rows.posting(0, 50, 0)
        rows.row(TextFeatures.gramKey("hi".unicodeScalars), order: 2)
        rows.posting(1, 20, 0)  // "hi" in language 1, "h" not
        let scales = DetectorModel.Scales(conditional: 12, backOff: 12, word: 8)
        #expect(throws: ModelFormatError.self) { try rows.derivedBackOffs(scales: scales) }
        var deep = GramRows(rows: 1)
        deep.row(TextFeatures.gramKey("hi".unicodeScalars), order: 2)  // no prefix row at all
        deep.posting(0, 20, 0)
        #expect(throws: ModelFormatError.self) { try deep.derivedBackOffs(scales: scales) }
    }

    @Test func tableFindsEveryKeyAndNothingElse() {
        let keys = (0..<5000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        var builder = PostingTable.Builder(valuesPerPosting: 1)
        for (index, key) in keys.enumerated() {
            builder.row(key, postings: 1)
            builder.posting(UInt8(index % 7), UInt8(index % 256))
        }
        let table = builder.build()
        for (index, key) in keys.enumerated() {
            #expect(table.postings(table.row(key)).map { [$0.language, $0.value] } == [[UInt8(index % 7), UInt8(index % 256)]])
        }
        #expect(table.row(0xDEAD_BEEF_0000_0001) == -1)
        #expect(table.reference(0xDEAD_BEEF_0000_0001) == PostingTable.noRow)
    }

    /// Long rows carry dense ordinals 0, 1, 2, … in the order they were added, short rows none;
    /// a scan finds each language's posting of a row, and none for a language the row lacks.
    @Test func denseOrdinalsAndScansFindEachLanguagesPosting() {
        let languages = 130
        var builder = PostingTable.Builder(valuesPerPosting: 2, rows: 200, denseOrdinals: true)
        var expected: [[Int]] = []
        for row in 0..<200 {
            // Rows of 1...130 postings: every (row·7)-th language and a few fixed ones.
            let owners = (0..<languages).filter { ($0 * (row + 3)) % 11 < 1 + row % 11 || $0 == 129 }
            expected.append(owners)
            builder.row(UInt64(row) &* 0x9E37_79B9_7F4A_7C15, postings: owners.count)
            for l in owners { builder.posting(UInt8(l), UInt8(l % 256), UInt8(row % 256)) }
        }
        let table = builder.build()
        var ordinal = 0
        let records = table.records
        for (row, owners) in expected.enumerated() {
            let offset = table.row(UInt64(row) &* 0x9E37_79B9_7F4A_7C15)
            #expect(table.postings(offset).map { Int($0.language) } == owners)
            #expect(table.denseOrdinal(offset) == (owners.count >= PostingTable.denseMinimum ? ordinal : -1))
            // The index alone gives the same: a long row's ordinal, a short row's offset.
            let reference = table.reference(UInt64(row) &* 0x9E37_79B9_7F4A_7C15)
            #expect(PostingTable.denseOrdinal(reference: reference) == table.denseOrdinal(offset))
            if owners.count < PostingTable.denseMinimum { #expect(reference == offset) }
            if owners.count >= PostingTable.denseMinimum { ordinal += 1 }
            for l in 0..<languages {
                let at = PostingTable.scan(offset, language: l, in: records, ordinalBytes: table.ordinalBytes, valuesPerPosting: 2)
                if owners.contains(l) {
                    #expect(at >= 0 && records[at] == UInt8(l) && records[at + 1] == UInt8(l) && records[at + 2] == UInt8(row % 256))
                } else {
                    #expect(at == -1)
                }
            }
        }
        #expect(table.denseRowCount == ordinal && ordinal > 0)
    }

    /// The scorer's dense planes hold each long row's values as the value tables give them, and
    /// the absent marks elsewhere; the unigram rows by scalar are the index's answers.
    @Test func scoringTablesMirrorThePostings() {
        let model = DetectorModel.embedded
        let tables = model.scoring
        var seen = 0
        for scalar in "aeiouzßżщ".unicodeScalars {
            let reference = tables.unigramRow(scalar.value)
            #expect(reference == model.grams.reference(TextFeatures.gramKey([scalar])))
            let offset = model.grams.row(TextFeatures.gramKey([scalar]))
            let ordinal = model.grams.denseOrdinal(offset)
            // The reference names the row the offset does: a long row by its ordinal, a short
            // one by its offset.
            #expect(PostingTable.denseOrdinal(reference: reference) == ordinal)
            if ordinal < 0 { #expect(reference == offset) }
            guard ordinal >= 0 else { continue }
            seen += 1
            let postings = Dictionary(uniqueKeysWithValues: model.grams.postings(offset).map { (Int($0.language), $0) })
            for l in 0..<tables.stride {
                let conditional = tables.conditionalPlane[ordinal * tables.stride + l]
                let backOff = tables.backOffPlane[ordinal * tables.stride + l]
                if let p = postings[l] {
                    #expect(conditional == tables.conditional[Int(p.value)] && backOff == tables.backOff[Int(p.second)])
                } else {
                    #expect(conditional == ScoringTables.absentConditional && backOff.bitPattern == ScoringTables.absentBackOff.bitPattern)
                }
            }
        }
        #expect(seen >= 5)
    }

    /// The precomputed scalar classes are the standard library's answers, for every scalar of
    /// the plane the table covers and beyond it.
    @Test func scalarClassesAreTheUnicodeProperties() {
        for value in UInt32(0)..<0x11000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let classes = ScalarClasses.of(scalar)
            let p = scalar.properties
            let isWord: Bool
            switch p.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark: isWord = true
            default: isWord = false
            }
            func has(_ c: UInt8) -> Bool { classes & c != 0 }
            guard has(ScalarClasses.word) == isWord, has(ScalarClasses.lowercases) == p.changesWhenLowercased,
                  has(ScalarClasses.whitespace) == p.isWhitespace, has(ScalarClasses.numeric) == (p.numericType != nil),
                  TextFeatures.isWhitespace(scalar) == p.isWhitespace else {
                Issue.record("scalar classes differ for U+\(String(value, radix: 16))")
                return
            }
        }
    }

    /// With many candidates the scorer spreads postings, with few it searches them: both must
    /// give the same floats, or a text's answer would depend on how far pruning got.
    @Test func spreadAndSearchScoreAlike() {
        let model = DetectorModel.embedded
        let latin = model.languagesByScript[.latin]!
        #expect(latin.count > WordScorer.searchCandidates)
        let few = Array(latin.prefix(3))
        for word in ["hello", "schließlich", "xqzw", "aujourd", "ż"] {
            var all = WordScorer(model: model, candidates: latin)
            var some = WordScorer(model: model, candidates: few)
            all.add(Array(word.unicodeScalars))
            some.add(Array(word.unicodeScalars))
            for l in few { #expect(all.scores[l] == some.scores[l], "\(word), \(model.languages[l].code)") }
        }
    }

    @Test func calibrationInterpolatesBetweenBinCentres() {
        let model = DetectorModel(content: Self.tiny())
        #expect(model.calibrated(0) == 0.1)
        #expect(model.calibrated(1) == 0.9)
        #expect(abs(model.calibrated(0.5) - 0.5) < 1e-6)
    }

    @Test func temperatureByWordCount() {
        let model = DetectorModel(content: Self.tiny())
        #expect(model.temperature(words: 1) == 3)
        #expect(model.temperature(words: 2) == 2)
        #expect(model.temperature(words: 50) == 1)
        #expect(model.priorWeight(words: 1) == 0.5 && model.priorWeight(words: 9) == 0.25)
    }
}

/// The features: identical for training and detection, so their details are pinned here.
@Suite struct TextFeaturesTests {
    func words(_ text: String) -> [String] {
        var out: [String] = []
        TextFeatures.forEachWord(in: text) { out.append(String(String.UnicodeScalarView($0))) }
        return out
    }

    @Test func wordsAreLowerCasedLetterRuns() {
        #expect(words("Hello, WORLD! l'été 42x") == ["hello", "world", "l", "été", "x"])
        #expect(words("İSTANBUL") == ["i̇stanbul"])
    }

    @Test func decomposedAccentsAreComposed() {
        #expect(words("Cafe\u{301}") == ["café"])
        #expect(TextFeatures.needsComposition("Cafe\u{301}"))
        #expect(!TextFeatures.needsComposition("Café"))
    }

    @Test func letterLimitStopsReading() {
        #expect(words("abc defgh") == ["abc", "defgh"])
        var out: [String] = []
        TextFeatures.forEachWord(in: "abc defgh", letterLimit: 5) { out.append(String(String.UnicodeScalarView($0))) }
        #expect(out == ["abc", "de"])
    }

    @Test func devanagariMarksStayInTheWord() {
        #expect(words("हिन्दी भाषा") == ["हिन्दी", "भाषा"])
    }

    @Test func gramsOfAFramedWord() {
        var framed: [Unicode.Scalar] = []
        TextFeatures.framed(["h", "i"], into: &framed)
        var grams: [(Int, Int, UInt64)] = []
        TextFeatures.forEachGram(inFramed: framed) { grams.append(($0, $1, $2)) ; _ = $3 }
        // `_hi_`: 4 + 3 + 2 + 1 n-grams (orders 1-4; 5 needs five scalars).
        #expect(grams.count == 10)
        #expect(grams.contains { $0.0 == 3 && $0.1 == 4 && $0.2 == TextFeatures.gramKey("_hi_".unicodeScalars) })
        #expect(TextFeatures.wordKey("hi".unicodeScalars) != TextFeatures.gramKey("hi".unicodeScalars))
    }
}

@Suite struct ScriptCensusTests {
    @Test func countsLettersByScriptAndIgnoresGenericMarks() {
        let census = ScriptCensus("Cafe\u{301} и 東京")
        #expect(census.counts == [.latin: 4, .cyrillic: 1, .han: 2])
        #expect(census.dominant == .latin)
        #expect(abs(census.share(of: .latin) - 4.0 / 7.0) < 1e-12)
    }

    @Test func noLettersNoDominantScript() {
        #expect(ScriptCensus("123 !? 😀").dominant == nil)
        #expect(ScriptCensus("").share(of: .latin) == 0)
    }
}
