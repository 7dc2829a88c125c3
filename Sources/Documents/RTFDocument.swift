import Foundation

/// An RTF document: its paragraphs as segments, and the document rebuilt with their translations.
///
/// Only text in text destinations is translated: the body, headers, footers, footnotes and field
/// results; font, colour and style tables, document information, pictures, field instructions
/// and every `{\*…}` destination are markup. Control words stay where they were; a piece's text
/// is re-encoded as RTF (`\'hh` in the document's Windows code page, else `\uN` with as many
/// fallback characters as the `\ucN` in force says).
struct RTFDocument {
    private let bytes: [UInt8]
    private let tokens: [RTFToken]
    /// Per segment, per piece: the tokens the piece spans, and the `\uc` value in force there.
    private var spans: [[(tokens: Range<Int>, uc: Int)]] = []
    private(set) var segments: [Segment] = []
    /// The code page of `\'hh` (`\ansicpgN`), 1252 when not given.
    private var codePage = 1252

    /// Destinations whose text is not the document's text.
    static let skippedDestinations: Set<String> = [
        "fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "objdata", "fldinst", "datafield", "themedata",
        "colorschememapping", "latentstyles", "listtable", "listoverridetable", "rsidtbl", "generator", "xmlnstbl",
        "mmathPr", "filetbl", "revtbl", "pgdsctbl", "bkmkstart", "bkmkend", "template", "userprops", "docvar", "falt",
        "panose", "xe", "tc", "txe", "bxe", "ixe", "atnid", "atnauthor", "atndate", "annotation", "pntext", "pntxta", "pntxtb",
        "listtext", "nonshppict", "shppict", "sp", "sn", "sv", "blipuid", "ftnsep", "ftnsepc", "aftnsep", "aftnsepc",
        "author", "operator", "title", "subject", "keywords", "comment", "doccomm", "company", "manager", "category",
        "hlinkbase", "upr", "ud", "fname", "leveltext", "levelnumbers", "shpinst", "shprslt", "private", "mhtmltag", "htmltag",
    ]
    /// Destinations whose text is a paragraph stream of its own (a footnote inside a paragraph).
    static let separateDestinations: Set<String> = [
        "footnote", "header", "headerl", "headerr", "headerf", "footer", "footerl", "footerr", "footerf", "shptxt",
    ]
    /// Control words that end a paragraph.
    static let paragraphEnds: Set<String> = ["par", "sect", "page", "cell", "row", "nestcell", "nestrow", "column"]
    /// Control words that are a blank inside a paragraph.
    static let separators: Set<String> = ["tab", "line", "lbr", "chftn", "chdate", "chpgn", "field"]
    /// Control words that stand for a character.
    static let characters: [String: String] = [
        "emdash": "\u{2014}", "endash": "\u{2013}", "emspace": "\u{2003}", "enspace": "\u{2002}", "qmspace": "\u{2005}",
        "bullet": "\u{2022}", "lquote": "\u{2018}", "rquote": "\u{2019}", "ldblquote": "\u{201C}", "rdblquote": "\u{201D}",
        "zwj": "\u{200D}", "zwnj": "\u{200C}",
    ]

    private struct Group {
        var uc = 1
        var skipped = false
        var separate = false
        var firstToken = true
    }

    private struct OpenParagraph {
        var pieces: [String] = []
        var spans: [(tokens: Range<Int>, uc: Int)] = []
        var joinable: [Bool] = []
        var separated = false
        /// The piece being read: its text and first token.
        var current: (text: String, start: Int, uc: Int)?
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.tokens = RTFScanner.tokens(bytes)
        var groups = [Group()]
        var open = [OpenParagraph()]
        var fallbackToSkip = 0

        func closePiece(at end: Int) {
            guard let current = open[open.count - 1].current else { return }
            var paragraph = open[open.count - 1]
            if !paragraph.pieces.isEmpty { paragraph.joinable.append(!paragraph.separated) }
            paragraph.pieces.append(current.text)
            paragraph.spans.append((current.start..<end, current.uc))
            paragraph.separated = false
            paragraph.current = nil
            open[open.count - 1] = paragraph
        }
        func closeParagraph(at end: Int) {
            closePiece(at: end)
            let paragraph = open[open.count - 1]
            if !paragraph.pieces.isEmpty {
                segments.append(Segment(kind: .pieces, pieces: paragraph.pieces, joinable: paragraph.joinable))
                spans.append(paragraph.spans)
            }
            open[open.count - 1] = OpenParagraph()
        }
        func addText(_ text: String, token: Int) {
            if open[open.count - 1].current == nil { open[open.count - 1].current = ("", token, groups[groups.count - 1].uc) }
            open[open.count - 1].current!.text += text
        }

        for (index, token) in tokens.enumerated() {
            let group = groups[groups.count - 1]
            let isFirst = group.firstToken
            if case .groupOpen = token.kind {} else { groups[groups.count - 1].firstToken = false }
            if group.skipped {
                if case .groupOpen = token.kind { groups.append(Group(uc: group.uc, skipped: true)) }
                if case .groupClose = token.kind, groups.count > 1 { groups.removeLast() }
                continue
            }
            // Fallback characters after \uN belong to the piece and are not text.
            if fallbackToSkip > 0 {
                switch token.kind {
                case .text, .hexCharacter:
                    fallbackToSkip -= 1
                    continue
                case .ignorable: continue
                default: fallbackToSkip = 0
                }
            }
            switch token.kind {
            case .groupOpen:
                closePiece(at: index)
                groups.append(Group(uc: group.uc))
            case .groupClose:
                closePiece(at: index)
                if group.separate {
                    closeParagraph(at: index)
                    if open.count > 1 { open.removeLast() }
                }
                if groups.count > 1 { groups.removeLast() } else { groups[0] = Group() }
                if !open.isEmpty { open[open.count - 1].separated = open[open.count - 1].separated || group.separate }
            case .controlSymbol(0x2A) where isFirst:   // {\* …}: an ignorable destination
                closePiece(at: index)
                groups[groups.count - 1].skipped = true
            case .controlWord(let name, let parameter, _):
                if name == "ansicpg", let parameter { codePage = parameter }
                if isFirst && Self.skippedDestinations.contains(name) {
                    closePiece(at: index)
                    groups[groups.count - 1].skipped = true
                } else if isFirst && Self.separateDestinations.contains(name) {
                    closePiece(at: index)
                    open[open.count - 1].separated = true
                    groups[groups.count - 1].separate = true
                    open.append(OpenParagraph())
                } else if name == "uc", let parameter {
                    groups[groups.count - 1].uc = max(0, parameter)
                } else if name == "u", let parameter {
                    addText(Self.unicode(parameter), token: index)
                    fallbackToSkip = group.uc
                } else if let character = Self.characters[name] {
                    addText(character, token: index)
                } else if Self.paragraphEnds.contains(name) {
                    closeParagraph(at: index)
                } else {
                    closePiece(at: index)
                    if Self.separators.contains(name) { open[open.count - 1].separated = true }
                }
            case .controlSymbol(let symbol):
                switch symbol {
                case 0x5C, 0x7B, 0x7D: addText(String(UnicodeScalar(symbol)), token: index)
                case 0x7E: addText("\u{00A0}", token: index)
                case 0x5F: addText("\u{2011}", token: index)
                case 0x0A, 0x0D: closeParagraph(at: index)   // "\" + newline is \par
                default: closePiece(at: index)   // \- (optional hyphen), \|, \: …
                }
            case .hexCharacter(let byte):
                addText(decode(byte), token: index)
            case .text(let byte):
                addText(byte < 0x80 ? String(UnicodeScalar(byte)) : String(Windows1252.scalar(byte)), token: index)
            case .ignorable:
                closePiece(at: index)
            }
        }
        while open.count > 1 {
            closeParagraph(at: tokens.count)
            open.removeLast()
        }
        closeParagraph(at: tokens.count)
    }

    /// The document with each segment's pieces replaced by `translations`.
    func rebuilt(with translations: [[String]]) -> [UInt8] {
        var replacement: [Int: (end: Int, bytes: [UInt8])] = [:]
        for (segment, pieces) in zip(spans.indices, translations) {
            for (k, span) in spans[segment].enumerated() where k < pieces.count && pieces[k] != segments[segment].pieces[k] {
                var encoded = encode(pieces[k], uc: span.uc)
                // A control word ended by the old text's first character (`\b0,`) would run
                // into a new first letter, digit, hyphen or space: give it its delimiter.
                if span.tokens.lowerBound > 0, case .controlWord(_, _, delimited: false) = tokens[span.tokens.lowerBound - 1].kind,
                   let first = encoded.first, first == 0x20 || first == 0x2D || (first >= 0x30 && first <= 0x39) || ((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A) {
                    encoded.insert(0x20, at: 0)
                }
                replacement[span.tokens.lowerBound] = (span.tokens.upperBound, encoded)
            }
        }
        guard !replacement.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var i = 0
        while i < tokens.count {
            if let (end, encoded) = replacement[i] {
                out += encoded
                i = end
            } else {
                out += bytes[tokens[i].range]
                i += 1
            }
        }
        return out
    }

    /// `text` as RTF text.
    private func encode(_ text: String, uc: Int) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C, 0x7B, 0x7D: out += [0x5C, UInt8(scalar.value)]
            case 0x09: out += Array("\\tab ".utf8)
            case 0x0A: out += Array("\\line ".utf8)
            case 0x0D: continue
            case 0xA0: out += Array("\\~".utf8)
            case 0x20..<0x7F: out.append(UInt8(scalar.value))
            default:
                if codePage == 1252, let byte = Windows1252.byte(scalar), byte >= 0x80 {
                    out += Array(String(format: "\\'%02x", byte).utf8)
                    continue
                }
                let units = scalar.value > 0xFFFF ? Array(String(scalar).utf16) : [UInt16(scalar.value)]
                for unit in units {
                    out += Array("\\u\(Int16(bitPattern: unit))".utf8)
                    out += uc == 0 ? [0x20] : Array(repeating: 0x3F, count: uc)
                }
            }
        }
        return out
    }

    private func decode(_ byte: UInt8) -> String {
        guard byte >= 0x80 else { return String(UnicodeScalar(byte)) }
        let encodings: [Int: String.Encoding] = [1250: .windowsCP1250, 1251: .windowsCP1251, 1253: .windowsCP1253, 1254: .windowsCP1254]
        if let encoding = encodings[codePage], let text = String(data: Data([byte]), encoding: encoding) { return text }
        return String(Windows1252.scalar(byte))
    }

    private static func unicode(_ value: Int) -> String {
        let unit = UInt16(truncatingIfNeeded: value < 0 ? value + 65536 : value)
        return String(decoding: [unit], as: UTF16.self)
    }
}
