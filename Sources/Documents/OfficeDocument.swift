import Zip

/// A zip-based office document (docx, pptx, xlsx, odt, odp, ods): the XML parts that hold its
/// text, read as ``XMLPart``s, and the document rebuilt by ``ZipWriter`` with only those parts
/// changed, so images, styles, relationships and every other entry stay byte for byte.
struct OfficeDocument {
    private let archive: ZipArchive
    private var parts: [(path: String, part: XMLPart)] = []

    /// The segments of every text part, in part order.
    var segments: [Segment] { parts.flatMap(\.part.segments) }

    /// Opens `bytes` as `format`, unpacking at most `maxUnpackedBytes`.
    /// - Throws: ``DocumentError``.
    init(_ bytes: [UInt8], format: DocumentFormat, maxUnpackedBytes: Int) throws(DocumentError) {
        do { archive = try ZipArchive(bytes: bytes) } catch { throw DocumentError(.damaged, "The \(format.rawValue) document is damaged: \(error.message).") }
        let textParts = archive.entries.filter { !$0.isDirectory && Self.rules(for: $0.path, format: format) != nil }
        let unpacked = textParts.reduce(0) { $0 + $1.size }
        guard unpacked <= maxUnpackedBytes else {
            throw DocumentError(.tooLarge, "The \(format.rawValue) document's text parts unpack to \(unpacked) bytes, over the limit of \(maxUnpackedBytes).")
        }
        guard !textParts.isEmpty else { throw DocumentError(.damaged, "The \(format.rawValue) document has no text part.") }
        for entry in textParts {
            let contents: [UInt8]
            do { contents = try archive.contents(of: entry) } catch { throw DocumentError(.damaged, "The \(format.rawValue) document is damaged: \(error.message).") }
            parts.append((entry.path, XMLPart(bytes: contents, rules: Self.rules(for: entry.path, format: format)!)))
        }
    }

    /// The document with each segment's pieces replaced by `translations` (in ``segments`` order).
    func rebuilt(with translations: [[String]]) throws(DocumentError) -> [UInt8] {
        var replacements: [String: [UInt8]] = [:]
        var offset = 0
        for (path, part) in parts {
            let count = part.segments.count
            let rebuilt = part.rebuilt(with: Array(translations[offset..<(offset + count)]))
            offset += count
            if count > 0 { replacements[path] = rebuilt }
        }
        do { return try ZipWriter.rewrite(archive, replacing: replacements) } catch {
            throw DocumentError(.damaged, "The document is damaged: \(error.message).")
        }
    }

    /// The rules for the part at `path` of a `format` document, nil for parts without text.
    static func rules(for path: String, format: DocumentFormat) -> XMLTextRules? {
        guard path.hasSuffix(".xml") else { return nil }
        switch format {
        case .docx:
            // Body, headers, footers, footnotes, endnotes, comments, glossary; charts and
            // diagrams hold DrawingML text. Styles, settings and numbering hold no w:p.
            return path.hasPrefix("word/") ? .word + .drawing : nil
        case .pptx:
            // Slides, notes, charts and SmartArt; masters and layouts hold only the editing
            // placeholders ("Click to edit Master title style") and are left as they are.
            let prefixes = ["ppt/slides/", "ppt/notesSlides/", "ppt/charts/", "ppt/diagrams/data"]
            return prefixes.contains { path.hasPrefix($0) } ? .drawing : nil
        case .xlsx:
            if path == "xl/sharedStrings.xml" || path.hasPrefix("xl/worksheets/sheet") || path.hasPrefix("xl/comments") { return .sheet }
            return path.hasPrefix("xl/charts/") || path.hasPrefix("xl/drawings/") ? .drawing : nil
        case .odt, .odp, .ods:
            return path == "content.xml" || path == "styles.xml" ? .openDocument : nil
        case .txt, .html, .rtf:
            return nil
        }
    }
}
