import Foundation
import Testing
import TranslationCore
@testable import NeuralEngine

@Suite struct ModelStoreTests {
    @Test func defaultRootFollowsXDG() {
        #expect(ModelStore.defaultRoot(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path == "/data/glossa/models")
        #expect(ModelStore.defaultRoot(environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/glossa/models")
        // A relative XDG_DATA_HOME is invalid per the spec and ignored.
        #expect(ModelStore.defaultRoot(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"]).path == "/home/u/.local/share/glossa/models")
    }

    @Test func installListRemoveFromPath() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-store-\(UUID().uuidString)")
        let store = ModelStore(root: root)
        #expect(store.list().models.isEmpty)
        let files = PackageTests().packageFiles()
        let archive = root.deletingLastPathComponent().appendingPathComponent("\(UUID().uuidString).argosmodel")
        try Data(storedZip(files)).write(to: archive)
        let model = try await store.install(from: archive.path)
        #expect(model.name == "p" && model.metadata.toCode == "de")
        #expect(store.list().models.map(\.name) == ["p"])
        // A broken folder is listed as skipped with its reason, not silently ignored.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("broken"), withIntermediateDirectories: true)
        #expect(store.list().skipped["broken"]?.contains("metadata.json") == true)
        try store.remove("p")
        #expect(store.list().models.isEmpty)
        let missing = #expect(throws: TranslationError.self) { try store.remove("p") }
        #expect(missing?.kind == .notInstalled)
        #expect(throws: TranslationError.self) { try store.remove("../etc") }
        let nofile = await #expect(throws: TranslationError.self) { try await store.install(from: "/nonexistent/x.argosmodel") }
        #expect(nofile?.kind == .invalidArgument)
    }
}

@Suite struct ModelCatalogTests {
    @Test func listedOnceAndAgainOnlyAfterInstallOrRemove() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-catalog-\(UUID().uuidString)")
        let store = ModelStore(root: root)
        let engine = NeuralEngine(store: store)
        defer { Task { await engine.shutdown() } }
        #expect(await engine.pairs().isEmpty)   // no folder yet
        let archive = root.deletingLastPathComponent().appendingPathComponent("\(UUID().uuidString).argosmodel")
        try Data(storedZip(PackageTests().packageFiles())).write(to: archive)
        try await store.install(from: archive.path)
        #expect(await engine.pairs() == [LanguagePair(source: "en", target: "de")])
        // A listing made within a second of the folder's change is taken again (file times
        // advance in coarse ticks); after that it settles.
        try await Task.sleep(for: .milliseconds(1200))
        #expect(await engine.pairs() == [LanguagePair(source: "en", target: "de")])
        // A change inside a package folder does not change the models folder: the listing is
        // not read again (a lookup is one stat, not a scan and a decode per package).
        try Data(#"{"from_code": "en", "to_code": "fr"}"#.utf8).write(to: root.appendingPathComponent("p/metadata.json"))
        #expect(await engine.pairs() == [LanguagePair(source: "en", target: "de")])
        engine.refreshModels()
        #expect(await engine.pairs() == [LanguagePair(source: "en", target: "fr")])
        try store.remove("p")
        #expect(await engine.pairs().isEmpty)
        #expect(await engine.status().loaded.isEmpty)
    }
}
