import Foundation
import TranslationCore

/// A glossary as the store keeps it: a name and one dictionary per direction.
public struct StoredGlossary: Sendable, Equatable {
    /// What a glossary holds for one direction.
    public struct Dictionary: Sendable, Equatable {
        /// The source language, a lower-case base code (`en`): glossaries do not tell regions apart.
        public let source: String
        /// The target language, a lower-case base code.
        public let target: String
        /// How many entries it has.
        public let entryCount: Int

        /// Makes a description.
        public init(source: String, target: String, entryCount: Int) {
            self.source = source
            self.target = target
            self.entryCount = entryCount
        }
    }

    /// A UUID, lower case.
    public let id: String
    /// The name its maker gave it (names may repeat).
    public let name: String
    /// When it was made, to the millisecond.
    public let created: Date
    /// Its dictionaries, by source then target.
    public let dictionaries: [Dictionary]

    /// ``created`` as DeepL and Google write times: ISO 8601 in UTC, with milliseconds.
    public var creationTime: String { Self.timestamp(created) }

    /// `date` as ISO 8601 in UTC, with milliseconds.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// Entries for one direction, on their way into the store.
public struct GlossaryDictionaryEntries: Sendable, Equatable {
    /// The source language, a lower-case base code.
    public let source: String
    /// The target language, a lower-case base code.
    public let target: String
    /// The entries (checked by ``GlossaryEntries``).
    public let entries: [GlossaryEntry]

    /// Entries for `source` → `target`; the codes are reduced to their lower-case base language.
    public init(source: LanguageCode, target: LanguageCode, entries: [GlossaryEntry]) {
        self.source = source.base.bcp47.lowercased()
        self.target = target.base.bcp47.lowercased()
        self.entries = entries
    }

    /// Entries for codes already reduced (what the store reads back).
    init(sourceCode: String, targetCode: String, entries: [GlossaryEntry]) {
        source = sourceCode
        target = targetCode
        self.entries = entries
    }
}
