import Testing
@testable import LanguageDetection

/// The model file and its tables: what the build embeds must read back exactly, and a damaged
/// file must be refused, never misread.
@Suite struct DetectorModelTests {
    static func tiny() -> DetectorModel {
        DetectorModel(
            languages: [
                .init(code: "en", scripts: [.latin], logOutOfVocabulary: -2, logInVocabulary: -0.1, logUnseenScalar: -12),
                .init(code: "ja", scripts: [.han, .hiragana, .katakana], logOutOfVocabulary: -1, logInVocabulary: -0.3, logUnseenScalar: -11),
            ],
            parameters: .init(temperatures: [3, 2, 1], calibration: [0.1, 0.5, 0.9]),
            grams: PostingTable(keys: [5, 9, 70], starts: [0, 2, 3, 4], languages: [0, 1, 0, 1], values: [1, 2, 3, 4, 5, 6, 7, 8], valuesPerPosting: 2),
            words: PostingTable(keys: [3], starts: [0, 1], languages: [1], values: [200], valuesPerPosting: 1))
    }

    @Test func serializedModelReadsBackEqual() throws {
        let model = Self.tiny()
        #expect(try DetectorModel(bytes: model.serialized()) == model)
    }

    @Test func embeddedModelIsWellFormed() throws {
        let model = DetectorModel.embedded
        #expect(model.languages.count >= 80)
        #expect(try DetectorModel(bytes: model.serialized()) == model)
        #expect(model.parameters.calibration == model.parameters.calibration.sorted(), "calibration must be monotone")
        #expect(Set(model.languages.map(\.code)).count == model.languages.count)
    }

    @Test func damagedFilesAreRefused() {
        let bytes = Self.tiny().serialized()
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: Array(bytes.dropLast())) }
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: bytes + [0]) }
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: [UInt8]("GLDX".utf8) + bytes.dropFirst(4)) }
        var version = bytes
        version[4] = 9
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: version) }
        #expect(throws: ModelFormatError.self) { try DetectorModel(bytes: []) }
    }

    @Test func tableFindsEveryKeyAndNothingElse() {
        let keys = (0..<5000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        let folded = keys.map(PostingTable.fold)
        let order = folded.indices.sorted { folded[$0] < folded[$1] }
        let table = PostingTable(keys: order.map { folded[$0] }, starts: Array(0...UInt32(keys.count)),
                                 languages: [UInt8](repeating: 0, count: keys.count), values: order.map { UInt8($0 % 256) },
                                 valuesPerPosting: 1)
        for (index, key) in keys.enumerated() {
            let row = table.row(key)
            #expect(row != nil)
            if let row { #expect(table.values[table.postings(row).lowerBound] == UInt8(index % 256)) }
        }
        #expect(table.row(0xDEAD_BEEF_0000_0001) == nil)
    }

    @Test func calibrationInterpolatesBetweenBinCentres() {
        let model = Self.tiny()
        #expect(model.calibrated(0) == 0.1)
        #expect(model.calibrated(1) == 0.9)
        #expect(abs(model.calibrated(0.5) - 0.5) < 1e-6)
    }

    @Test func temperatureByWordCount() {
        let model = Self.tiny()
        #expect(model.temperature(words: 1) == 3)
        #expect(model.temperature(words: 2) == 2)
        #expect(model.temperature(words: 50) == 1)
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
