import Foundation
import Testing
import TranslationCore
@testable import NeuralEngine

@Suite struct PackageTests {
    func tempDir() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("glossa-pkg-\(UUID().uuidString)")
    }

    func write(_ bytes: [UInt8]) throws -> URL {
        let url = tempDir().appendingPathExtension("argosmodel")
        try Data(bytes).write(to: url)
        return url
    }

    let metadata = Array(#"{"from_code": "en", "to_code": "de", "package_version": "1.0"}"#.utf8)

    func packageFiles() -> [(String, [UInt8])] {
        [("p/metadata.json", metadata), ("p/model/model.bin", tinyModel().bytes()),
         ("p/model/config.json", Array(#"{"add_source_eos": false}"#.utf8)),
         ("p/model/shared_vocabulary.json", Array(#"["<unk>", "<s>", "</s>", "▁a", "▁b", "c"]"#.utf8)),
         ("p/sentencepiece.model", [1, 2, 3])]
    }

    @Test func truncatedOrForeignFilesAreClearErrors() throws {
        let bytes = storedZip(packageFiles())
        for cut in [0, 10, bytes.count / 2, bytes.count - 5] {
            let e = #expect(throws: TranslationError.self) { _ = try ArgosPackage.unpack(try write(Array(bytes[0..<cut])), into: tempDir()) }
            #expect(e?.message.contains("Malformed package") == true)
        }
        let text = #expect(throws: TranslationError.self) { _ = try ArgosPackage.unpack(try write(Array("not a zip at all, just text".utf8)), into: tempDir()) }
        #expect(text?.message.contains("not a zip file") == true)
    }

    @Test func unpacksAnArgosPackage() throws {
        let parent = tempDir()
        let log = ProgressLog()
        let dir = try ArgosPackage.unpack(try write(storedZip(packageFiles())), into: parent) { log.add($0) }
        let progress = log.values
        #expect(dir.lastPathComponent == "p")
        let package = try ArgosPackage(directory: dir)
        #expect(package.metadata.fromCode == "en" && package.metadata.toCode == "de")
        #expect(progress.last == 1)
        _ = try Translator(modelDirectory: package.modelDirectory)
        // Nothing but the package folder is left behind (the staging folder is removed).
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["p"])
    }

    @Test func sentencePieceLoadErrorsNameTheFile() throws {
        let e = #expect(throws: TranslationError.self) { _ = try SentencePiece(path: "/nonexistent/sp.model") }
        #expect(e?.message.contains("/nonexistent/sp.model") == true)
        let junk = try write(Array("not a model".utf8))
        let j = #expect(throws: TranslationError.self) { _ = try SentencePiece(path: junk.path) }
        #expect(j?.message.contains(junk.path) == true)
    }

    @Test func rejectsUnsafePathsAndMissingMetadata() throws {
        let escape = #expect(throws: TranslationError.self) {
            _ = try ArgosPackage.unpack(try write(storedZip([("p/metadata.json", metadata), ("p/../../evil", [1])])), into: tempDir())
        }
        #expect(escape?.message.contains("unsafe entry path") == true)
        let noMeta = #expect(throws: TranslationError.self) {
            _ = try ArgosPackage.unpack(try write(storedZip([("p/model/model.bin", [1])])), into: tempDir())
        }
        #expect(noMeta?.message.contains("metadata.json") == true)
        let incomplete = #expect(throws: TranslationError.self) {
            _ = try ArgosPackage.unpack(try write(storedZip([("p/metadata.json", metadata)])), into: tempDir())
        }
        #expect(incomplete?.message.contains("model/model.bin is missing") == true)
    }
}

/// Collects progress values; the lock makes it safe to share with the @Sendable callback.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Double] = []
    func add(_ v: Double) { lock.lock(); list.append(v); lock.unlock() }
    var values: [Double] { lock.lock(); defer { lock.unlock() }; return list }
}
