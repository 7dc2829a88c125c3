import Foundation
import TranslationCore

/// One installed Apertium translation mode: a pair and the mode file that describes its pipeline.
public struct ApertiumMode: Sendable, Equatable {
    /// The direction the mode translates.
    public let pair: LanguagePair
    /// The mode's name as Apertium spells it (`eng-spa`, `es-pt_BR`).
    public let name: String
    /// The `.mode` file.
    public let file: URL

    /// Makes a mode.
    public init(pair: LanguagePair, name: String, file: URL) {
        self.pair = pair
        self.name = name
        self.file = file
    }
}
