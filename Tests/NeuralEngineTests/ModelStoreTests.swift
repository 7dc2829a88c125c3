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
