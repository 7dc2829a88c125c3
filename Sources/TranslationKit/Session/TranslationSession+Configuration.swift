import Foundation
import TranslationCore

extension TranslationSession {
    /// The languages a session translates between, as Apple's `TranslationSession.Configuration`.
    ///
    /// ```swift
    /// var configuration = TranslationSession.Configuration(source: Locale.Language(identifier: "en"),
    ///                                                      target: Locale.Language(identifier: "es"))
    /// let session = TranslationSession(configuration: configuration, backend: .server(url))
    /// configuration.invalidate()   // version 1: ask for a fresh session (after installing a pair)
    /// ```
    ///
    /// On Apple platforms changing or invalidating a configuration re-runs a SwiftUI task that
    /// hands out a new session. Without SwiftUI there is no task: a session keeps the
    /// configuration it was made with, and ``version`` tells the caller a new one is wanted.
    public struct Configuration: Sendable, Equatable, Hashable {
        /// The language translated from; nil detects each text's language.
        public var source: Locale.Language?
        /// The language translated into; nil means the user's preferred language (the first of
        /// `Locale.preferredLanguages`).
        public var target: Locale.Language?
        /// Terms whose translation is fixed, source term → target term (a Glossa addition: Apple's
        /// framework has none). Each term found in a text (a whole word; as written, or
        /// capitalised at a sentence start) comes out as its target, the words around it
        /// translated as usual. Needs ``source``. Default: none.
        public var glossary: [String: String] = [:]
        /// Bumped by ``invalidate()``; two configurations that differ only here are different.
        public private(set) var version: Int = 0

        /// Makes a configuration. Both default to nil (detect the source; translate into the
        /// user's preferred language).
        public init(source: Locale.Language? = nil, target: Locale.Language? = nil, glossary: [String: String] = [:]) {
            self.source = source
            self.target = target
            self.glossary = glossary
        }

        /// The glossary as entries, in a stable order.
        var glossaryEntries: [GlossaryEntry] {
            glossary.keys.sorted().map { GlossaryEntry(source: $0, target: glossary[$0]!) }
        }

        /// Marks the configuration as changed (``version`` + 1) with the same languages, so code
        /// that watches it makes a new session.
        public mutating func invalidate() { version += 1 }
    }
}
