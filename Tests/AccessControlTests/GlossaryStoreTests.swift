@testable import AccessControl
import Foundation
import SQLDatabase
import DatabaseTestSupport
import Testing
import TranslationCore

@Suite("The glossary store on SQLite and on PostgreSQL: the same tests on both")
struct GlossaryStoreTests {
    static func entries(_ pairs: [(String, String)]) -> [GlossaryEntry] { pairs.map { GlossaryEntry(source: $0.0, target: $0.1) } }

    @Test("Glossaries are made, listed, read, changed and deleted, each owner seeing only its own",
          arguments: StoreKind.available)
    func lifecycle(_ kind: StoreKind) async throws {
        let database = Database(try await kind.location())
        defer { database.close() }
        let store = GlossaryStore(database: database)
        let enEs = GlossaryDictionaryEntries(source: "en-GB", target: "es", entries: Self.entries([("house", "hogar"), ("red", "rojo")]))
        let made = try await store.create(name: "terms", owner: "alice", dictionaries: [enEs])
        #expect(made.dictionaries == [.init(source: "en", target: "es", entryCount: 2)])
        #expect(try await store.list(owner: "alice").map(\.id) == [made.id])
        #expect(try await store.list(owner: "bob").isEmpty)
        #expect(try await store.find(id: made.id, owner: "bob") == nil)
        #expect(try await store.entries(id: made.id, owner: "bob", source: "en", target: "es") == nil)
        #expect(try await store.entries(id: made.id, owner: "alice", source: "en", target: "es") == enEs.entries)
        #expect(try await store.delete(id: made.id, owner: "bob") == false)

        // PATCH merges (an entry replaces the one with its source) and adds a direction.
        let esCa = GlossaryDictionaryEntries(source: "es", target: "ca", entries: Self.entries([("casa", "llar")]))
        let merged = try await store.update(id: made.id, owner: "alice", name: "renamed", merging: [
            GlossaryDictionaryEntries(source: "en", target: "es", entries: Self.entries([("red", "colorado"), ("sea", "mar")])), esCa,
        ])
        #expect(merged?.name == "renamed" && merged?.dictionaries.count == 2)
        #expect(try await store.entries(id: made.id, owner: "alice", source: "en", target: "es")
                == Self.entries([("house", "hogar"), ("red", "colorado"), ("sea", "mar")]))
        // PUT replaces one dictionary whole.
        let replaced = try await store.replace(id: made.id, owner: "alice", dictionary:
            GlossaryDictionaryEntries(source: "en", target: "es", entries: Self.entries([("sky", "cielo")])))
        #expect(replaced?.entryCount == 1)
        #expect(try await store.deleteDictionary(id: made.id, owner: "alice", source: "es", target: "ca"))
        await #expect(throws: TranslationError.self) {
            _ = try await store.deleteDictionary(id: made.id, owner: "alice", source: "en", target: "es")
        }
        #expect(try await store.delete(id: made.id, owner: "alice"))
        #expect(try await store.find(id: made.id, owner: "alice") == nil)
        #expect(try await database.execute("SELECT COUNT(*) FROM glossa_glossary_dictionaries").first?.integer(0) == 0)
    }

    @Test("A glossary needs a name and a dictionary, and one dictionary per direction", arguments: StoreKind.available)
    func refusals(_ kind: StoreKind) async throws {
        let database = Database(try await kind.location())
        defer { database.close() }
        let store = GlossaryStore(database: database)
        let d = GlossaryDictionaryEntries(source: "en", target: "es", entries: Self.entries([("a", "b")]))
        await #expect(throws: TranslationError.self) { _ = try await store.create(name: " ", owner: "", dictionaries: [d]) }
        await #expect(throws: TranslationError.self) { _ = try await store.create(name: "x", owner: "", dictionaries: []) }
        await #expect(throws: TranslationError.self) { _ = try await store.create(name: "x", owner: "", dictionaries: [d, d]) }
        #expect(try await store.list(owner: "").isEmpty)
    }
}
