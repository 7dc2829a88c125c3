import Synchronization
import Testing
import TranslationCore
import Zip
@testable import Documents

/// A stand-in for an engine with Apertium's treatment of markup: text outside tags is
/// "translated" (upper-cased, each word reversed where `reverse` is set), tags come back
/// unchanged and in order, as superblanks do. Records what it was sent.
final class FakeTranslator: Sendable {
    private let sent = Mutex<[([String], TextFormat)]>([])
    /// Every call, in order: the texts and their format.
    var calls: [([String], TextFormat)] { sent.withLock { $0 } }

    var translate: DocumentTranslator.TextTranslation {
        { [self] texts, format in
            sent.withLock { $0.append((texts, format)) }
            return texts.map { Self.upper($0, html: format == .html) }
        }
    }

    static func upper(_ text: String, html: Bool) -> String {
        guard html else { return text.uppercased() }
        var out = "", inTag = false, entity = false
        for c in text {
            if c == "<" { inTag = true } else if c == ">" { inTag = false; out.append(c); continue }
            if !inTag && c == "&" { entity = true } else if entity && c == ";" { entity = false; out.append(c); continue }
            out += inTag || entity ? String(c) : c.uppercased()
        }
        return out
    }
}

/// The bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The XML of `part` with every text node's contents removed: what must not change.
func skeleton(_ xml: [UInt8]) -> String {
    XMLScanner.tokens(xml).map { $0.kind == .text ? "" : String(decoding: xml[$0.range], as: UTF8.self) }.joined()
}

/// The entry `path` of the zip `archive` as text.
func entryText(_ archive: [UInt8], _ path: String) throws -> String {
    let zip = try ZipArchive(bytes: archive)
    return String(decoding: try zip.contents(of: try #require(zip.entry(path))), as: UTF8.self)
}
