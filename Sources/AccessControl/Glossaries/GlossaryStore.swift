import Foundation
import SQLDatabase
import TranslationCore

/// Glossaries in the key store's database (SQLite, or PostgreSQL shared by a cluster's
/// replicas, so a glossary made through one is used through any other), each owned by the key
/// that made it: every call names the owner, and a glossary of another owner is, to it, not there.
///
/// Invariant: a glossary has at least one dictionary and at most one per direction; a change to
/// its dictionaries is one transaction, so a reader sees a glossary before or after it.
public final class GlossaryStore: Sendable {
    /// The database.
    public let database: Database
    /// Most glossaries one owner may keep (DeepL's limit per account).
    public static let maxGlossariesPerOwner = 1000

    /// A store over `database` (nothing is opened yet).
    public init(database: Database) {
        self.database = database
    }

    /// The owner for a key: its SHA-256 (the key itself is stored nowhere); "" for callers
    /// without a key where keys are not checked, who share one set of glossaries.
    public static func owner(forKey key: String?) -> String {
        key.map(KeySecret.hash) ?? ""
    }

    /// Brings the schema up to date (the key store's migrations, which include the glossaries').
    public func prepare() async throws {
        try await KeyStore.schema.apply(to: database)
    }

    /// Makes a glossary of `dictionaries` (at least one, one per direction).
    /// - Throws: ``TranslationError`` `.invalidArgument` for no dictionary, two for one
    ///   direction, an empty name or too many glossaries; ``DatabaseError``.
    public func create(name: String, owner: String, dictionaries: [GlossaryDictionaryEntries], now: Date = Date()) async throws -> StoredGlossary {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid("The glossary name must not be empty.") }
        guard !dictionaries.isEmpty else { throw invalid("A glossary needs at least one dictionary.") }
        let directions = dictionaries.map { "\($0.source)-\($0.target)" }
        guard Set(directions).count == directions.count else { throw invalid("A glossary holds one dictionary per language pair.") }
        try await prepare()
        let id = UUID().uuidString.lowercased()
        let millis = Int((now.timeIntervalSince1970 * 1000).rounded(.down))
        let limit = Self.maxGlossariesPerOwner
        try await database.transaction(exclusive: true) { tx in
            let count = try tx.execute("SELECT COUNT(*) FROM glossa_glossaries WHERE owner = $1", [.text(owner)]).first?.integer(0) ?? 0
            guard count < limit else { throw TranslationError(.invalidArgument, "Too many glossaries: at most \(limit) per key; delete one first.") }
            _ = try tx.execute("INSERT INTO glossa_glossaries (id, owner, name, created_at) VALUES ($1, $2, $3, $4)",
                               [.text(id), .text(owner), .text(name), .integer(millis)])
            for d in dictionaries { try Self.put(d, into: id, tx) }
        }
        guard let made = try await find(id: id, owner: owner) else { throw DatabaseError.failed("the glossary just made is gone") }
        return made
    }

    /// The owner's glossaries, oldest first.
    public func list(owner: String) async throws -> [StoredGlossary] {
        try await prepare()
        let rows = try await database.execute("SELECT id, name, created_at FROM glossa_glossaries WHERE owner = $1 ORDER BY created_at, id", [.text(owner)])
        let dictionaries = try await database.execute("""
            SELECT d.glossary_id, d.source_lang, d.target_lang, d.entry_count FROM glossa_glossary_dictionaries d
            JOIN glossa_glossaries g ON g.id = d.glossary_id WHERE g.owner = $1 ORDER BY d.source_lang, d.target_lang
            """, [.text(owner)])
        var byGlossary: [String: [StoredGlossary.Dictionary]] = [:]
        for row in dictionaries { byGlossary[row.text(0) ?? "", default: []].append(Self.dictionary(row, from: 1)) }
        return rows.map { Self.glossary($0, dictionaries: byGlossary[$0.text(0) ?? ""] ?? []) }
    }

    /// The owner's glossary `id`; nil when there is none.
    public func find(id: String, owner: String) async throws -> StoredGlossary? {
        try await prepare()
        guard let row = try await database.execute("SELECT id, name, created_at FROM glossa_glossaries WHERE id = $1 AND owner = $2",
                                                   [.text(id), .text(owner)]).first else { return nil }
        let dictionaries = try await database.execute("""
            SELECT source_lang, target_lang, entry_count FROM glossa_glossary_dictionaries WHERE glossary_id = $1
            ORDER BY source_lang, target_lang
            """, [.text(id)])
        return Self.glossary(row, dictionaries: dictionaries.map { Self.dictionary($0, from: 0) })
    }

    /// The entries of the owner's glossary `id` for `source` → `target` (base codes); nil when
    /// there is no such glossary or it has no dictionary for that direction.
    public func entries(id: String, owner: String, source: String, target: String) async throws -> [GlossaryEntry]? {
        try await prepare()
        guard let row = try await database.execute("""
            SELECT d.entries FROM glossa_glossary_dictionaries d JOIN glossa_glossaries g ON g.id = d.glossary_id
            WHERE g.id = $1 AND g.owner = $2 AND d.source_lang = $3 AND d.target_lang = $4
            """, [.text(id), .text(owner), .text(source), .text(target)]).first, let tsv = row.text(0) else { return nil }
        return try GlossaryEntries.parse(tsv, format: .tsv)
    }

    /// Deletes the owner's glossary `id`; false when there was none.
    public func delete(id: String, owner: String) async throws -> Bool {
        try await prepare()
        return try await database.transaction(exclusive: true) { tx in
            guard try !tx.execute("SELECT id FROM glossa_glossaries WHERE id = $1 AND owner = $2", [.text(id), .text(owner)]).isEmpty else { return false }
            _ = try tx.execute("DELETE FROM glossa_glossary_dictionaries WHERE glossary_id = $1", [.text(id)])
            _ = try tx.execute("DELETE FROM glossa_glossaries WHERE id = $1", [.text(id)])
            return true
        }
    }

    /// Changes the owner's glossary `id`: a new name when given, and each of `dictionaries`
    /// merged into the glossary's dictionary for its direction (an entry replaces the one with
    /// the same source term; a direction it lacked is added). DeepL v3's PATCH. Nil when there
    /// is no such glossary.
    public func update(id: String, owner: String, name: String?, merging dictionaries: [GlossaryDictionaryEntries]) async throws -> StoredGlossary? {
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty { throw invalid("The glossary name must not be empty.") }
        try await prepare()
        let found = try await database.transaction(exclusive: true) { tx -> Bool in
            guard try !tx.execute("SELECT id FROM glossa_glossaries WHERE id = $1 AND owner = $2", [.text(id), .text(owner)]).isEmpty else { return false }
            if let name { _ = try tx.execute("UPDATE glossa_glossaries SET name = $1 WHERE id = $2", [.text(name), .text(id)]) }
            for d in dictionaries {
                let old = try tx.execute("SELECT entries FROM glossa_glossary_dictionaries WHERE glossary_id = $1 AND source_lang = $2 AND target_lang = $3",
                                         [.text(id), .text(d.source), .text(d.target)]).first?.text(0)
                var merged = try old.map { try GlossaryEntries.parse($0, format: .tsv) } ?? []
                let replaced = Set(d.entries.map(\.source))
                merged.removeAll { replaced.contains($0.source) }
                try Self.put(GlossaryDictionaryEntries(sourceCode: d.source, targetCode: d.target, entries: merged + d.entries), into: id, tx)
            }
            return true
        }
        return found ? try await find(id: id, owner: owner) : nil
    }

    /// Sets the entries of the owner's glossary `id` for one direction, replacing any it had
    /// (DeepL v3's PUT of a dictionary). Nil when there is no such glossary.
    public func replace(id: String, owner: String, dictionary: GlossaryDictionaryEntries) async throws -> StoredGlossary.Dictionary? {
        try await prepare()
        return try await database.transaction(exclusive: true) { tx in
            guard try !tx.execute("SELECT id FROM glossa_glossaries WHERE id = $1 AND owner = $2", [.text(id), .text(owner)]).isEmpty else { return nil }
            try Self.put(dictionary, into: id, tx)
            return StoredGlossary.Dictionary(source: dictionary.source, target: dictionary.target, entryCount: dictionary.entries.count)
        }
    }

    /// Removes one direction from the owner's glossary `id`. False when there is no such
    /// glossary or direction.
    /// - Throws: ``TranslationError`` `.invalidArgument` for the last dictionary (a glossary
    ///   has at least one: delete the glossary instead).
    public func deleteDictionary(id: String, owner: String, source: String, target: String) async throws -> Bool {
        try await prepare()
        return try await database.transaction(exclusive: true) { tx in
            guard try !tx.execute("SELECT id FROM glossa_glossaries WHERE id = $1 AND owner = $2", [.text(id), .text(owner)]).isEmpty else { return false }
            let count = try tx.execute("SELECT COUNT(*) FROM glossa_glossary_dictionaries WHERE glossary_id = $1", [.text(id)]).first?.integer(0) ?? 0
            let key: [SQLValue] = [.text(id), .text(source), .text(target)]
            guard try !tx.execute("SELECT glossary_id FROM glossa_glossary_dictionaries WHERE glossary_id = $1 AND source_lang = $2 AND target_lang = $3", key).isEmpty else { return false }
            guard count > 1 else { throw TranslationError(.invalidArgument, "A glossary needs at least one dictionary: delete the glossary instead.") }
            _ = try tx.execute("DELETE FROM glossa_glossary_dictionaries WHERE glossary_id = $1 AND source_lang = $2 AND target_lang = $3", key)
            return true
        }
    }

    private static func put(_ d: GlossaryDictionaryEntries, into id: String, _ tx: Transaction) throws {
        let key: [SQLValue] = [.text(id), .text(d.source), .text(d.target)]
        _ = try tx.execute("DELETE FROM glossa_glossary_dictionaries WHERE glossary_id = $1 AND source_lang = $2 AND target_lang = $3", key)
        _ = try tx.execute("INSERT INTO glossa_glossary_dictionaries (glossary_id, source_lang, target_lang, entries, entry_count) VALUES ($1, $2, $3, $4, $5)",
                           key + [.text(GlossaryEntries.tsv(d.entries)), .integer(d.entries.count)])
    }

    private static func glossary(_ row: SQLRow, dictionaries: [StoredGlossary.Dictionary]) -> StoredGlossary {
        StoredGlossary(id: row.text(0) ?? "", name: row.text(1) ?? "",
                       created: Date(timeIntervalSince1970: Double(row.integer(2) ?? 0) / 1000), dictionaries: dictionaries)
    }

    private static func dictionary(_ row: SQLRow, from i: Int) -> StoredGlossary.Dictionary {
        StoredGlossary.Dictionary(source: row.text(i) ?? "", target: row.text(i + 1) ?? "", entryCount: row.integer(i + 2) ?? 0)
    }

    private func invalid(_ message: String) -> TranslationError { TranslationError(.invalidArgument, message) }
}
