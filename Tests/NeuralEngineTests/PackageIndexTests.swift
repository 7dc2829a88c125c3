import Foundation
import Testing
import TranslationCore
@testable import NeuralEngine

/// Reading an Argos package index and choosing what a name asks for.
@Suite struct PackageIndexTests {
    static let json = """
        [{"code": "translate-en_de", "package_version": "1.0", "from_code": "en", "to_code": "de", "links": ["http://x/a"]},
         {"code": "translate-en_de", "package_version": "1.10", "from_code": "en", "to_code": "de", "links": ["http://x/b"]},
         {"code": "translate-en_de", "package_version": "1.9", "from_code": "en", "to_code": "de", "links": ["http://x/c"]},
         {"code": "translate-de_en", "package_version": "1.0", "from_code": "de", "to_code": "en", "links": ["http://x/d"]},
         {"code": "translate-es_en", "package_version": "1.0", "from_code": "es", "to_code": "en", "links": ["http://x/e"]},
         {"code": "translate-nolink", "package_version": "1.0", "from_code": "en", "to_code": "fr", "links": []},
         {"code": "other", "type": "sbd", "from_code": "en", "to_code": "en", "links": ["http://x/f"]}]
        """

    @Test func theNewestVersionByNumbersNotText() throws {
        let index = try PackageIndex(json: Data(Self.json.utf8), source: "test")
        #expect(index.entries.count == 5)   // no links, or not a translation package: left out
        #expect(index.newest(from: "en", to: "de")?.packageVersion == "1.10")
        #expect(index.entries[0].isNewer(than: "0.9") && !index.entries[0].isNewer(than: "1.0"))
    }

    @Test func namesLanguagesAndDirections() throws {
        let index = try PackageIndex(json: Data(Self.json.utf8), source: "test")
        #expect(try index.select("translate-en_de").map(\.links) == [["http://x/b"]])
        #expect(try index.select("de").map(\.name) == ["translate-en_de", "translate-de_en"])
        #expect(try index.select("es:de").map(\.name) == ["translate-es_en", "translate-en_de"])   // through English
        #expect(throws: TranslationError.self) { try index.select("ja") }
        #expect(throws: TranslationError.self) { try index.select("de:es") }
        #expect(throws: TranslationError.self) { try PackageIndex(json: Data("{}".utf8), source: "test") }
    }
}
