import Foundation

/// The words of one input that were not in Unicode's composed form (NFC), and how to give them
/// back.
///
/// Why: Apertium's analysers hold words in composed form and take a combining mark for the end
/// of a word, so `Zu\u{308}rich` (NFD, as macOS file names and some keyboards write it) reached
/// the pipeline as `Zu`, a blank and `rich`, and `rich` was translated. Words therefore go to the
/// pipeline in NFC, and every word of the answer that is the NFC form of an input word is written
/// as the input wrote it, so a word the engine leaves untranslated keeps its exact bytes.
struct WordForms: Sendable, Equatable {
    /// NFC form → the form the input used. Keys compare scalar by scalar (see `Key`).
    private var originals: [Key: String] = [:]

    /// A string compared by its scalars, not by canonical equivalence as `String` is.
    private struct Key: Hashable, Sendable {
        let scalars: [UInt32]
        init(_ text: Substring) { scalars = text.unicodeScalars.map(\.value) }
    }

    /// Whether nothing needs restoring.
    var isEmpty: Bool { originals.isEmpty }

    /// The UTF-8 bytes of one word of the input (as the deformatter saw it: no blanks) with each
    /// letter run in NFC; runs that change are remembered.
    mutating func composing(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        var out = ""
        for (run, isWord) in Self.runs(text) {
            guard isWord else { out += run; continue }
            let composed = run.precomposedStringWithCanonicalMapping
            if !composed.unicodeScalars.elementsEqual(run.unicodeScalars) {
                originals[Key(Substring(composed))] = String(run)
            }
            out += composed
        }
        return Array(out.utf8)
    }

    /// `text` (translated words and the blanks between them) with every word run that is the NFC
    /// form of an input word written as the input wrote it.
    func restore(_ text: String) -> String {
        guard !originals.isEmpty else { return text }
        var out = ""
        for (run, isWord) in Self.runs(text) {
            out += isWord ? (originals[Key(run)] ?? String(run)) : String(run)
        }
        return out
    }

    /// `text` cut into alternating runs of word scalars (letters, digits, combining marks) and
    /// other scalars.
    private static func runs(_ text: String) -> [(Substring, Bool)] {
        var runs: [(Substring, Bool)] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var current: Bool?
        for index in scalars.indices {
            let isWord = isWordScalar(scalars[index])
            if let c = current, c != isWord {
                runs.append((Substring(scalars[start..<index]), c))
                start = index
            }
            current = isWord
        }
        if let c = current { runs.append((Substring(scalars[start...]), c)) }
        return runs
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let p = scalar.properties
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber: return true
        default: return p.isAlphabetic
        }
    }
}
