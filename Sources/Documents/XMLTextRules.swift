/// Which elements of an XML vocabulary hold translatable text: a rule set per office format,
/// by namespace URI and local name (prefixes are whatever the file declares).
struct XMLTextRules: Sendable {
    /// An element name with its namespace resolved.
    struct Name: Hashable, Sendable {
        var namespace: String
        var local: String
    }

    /// Elements that are one segment each (a paragraph). A paragraph inside another (a text box,
    /// a footnote) is a segment of its own.
    var paragraphs: Set<Name>
    /// Elements whose own character data is text (`w:t`); nil: all character data inside a
    /// paragraph is text (ODF).
    var textElements: Set<Name>?
    /// Elements whose whole content is left alone (field codes, phonetic guides, deleted text).
    var excluded: Set<Name>
    /// Elements that stand for a blank or a break between pieces (a tab, a line break, a space
    /// element): a word never continues across them.
    var separators: Set<Name>

    /// What an element is to the reader, every role at once.
    struct Roles: OptionSet, Sendable {
        let rawValue: UInt8
        static let paragraph = Roles(rawValue: 1)
        static let text = Roles(rawValue: 2)
        static let excluded = Roles(rawValue: 4)
        static let separator = Roles(rawValue: 8)
    }

    /// Every element the rules name, with its roles: one lookup per tag where asking each set
    /// would hash the name (its namespace URI, some 60 bytes) once per set.
    var roles: [Name: Roles] {
        var roles: [Name: Roles] = [:]
        for name in paragraphs { roles[name, default: []].insert(.paragraph) }
        for name in textElements ?? [] { roles[name, default: []].insert(.text) }
        for name in excluded { roles[name, default: []].insert(.excluded) }
        for name in separators { roles[name, default: []].insert(.separator) }
        return roles
    }

    /// The union of rule sets (a docx part may hold WordprocessingML and DrawingML text).
    static func + (a: XMLTextRules, b: XMLTextRules) -> XMLTextRules {
        XMLTextRules(paragraphs: a.paragraphs.union(b.paragraphs),
                     textElements: a.textElements.flatMap { x in b.textElements.map { x.union($0) } },
                     excluded: a.excluded.union(b.excluded), separators: a.separators.union(b.separators))
    }

    private static func names(_ namespace: String, _ locals: [String]) -> Set<Name> {
        Set(locals.map { Name(namespace: namespace, local: $0) })
    }

    static let wordNamespace = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    static let drawingNamespace = "http://schemas.openxmlformats.org/drawingml/2006/main"
    static let sheetNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let odfText = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"

    /// WordprocessingML (docx): `w:p` paragraphs, text in `w:t`; field codes and deleted text stay.
    static let word = XMLTextRules(
        paragraphs: names(wordNamespace, ["p"]), textElements: names(wordNamespace, ["t"]),
        excluded: names(wordNamespace, ["instrText", "delText", "delInstrText"]),
        separators: names(wordNamespace, ["tab", "br", "cr", "ptab", "sym", "noBreakHyphen", "softHyphen", "drawing", "pict", "object",
                                          "footnoteReference", "endnoteReference", "commentReference", "fldChar", "instrText", "fldSimple"]))

    /// DrawingML (pptx slides, charts, SmartArt, shapes anywhere): `a:p`, text in `a:t`; fields
    /// (slide numbers, dates) stay.
    static let drawing = XMLTextRules(
        paragraphs: names(drawingNamespace, ["p"]), textElements: names(drawingNamespace, ["t"]),
        excluded: names(drawingNamespace, ["fld"]), separators: names(drawingNamespace, ["br", "fld", "tab"]))

    /// SpreadsheetML (xlsx): shared strings `si`, inline strings `is`, comment `text`; text in
    /// `t`; phonetic guides stay.
    static let sheet = XMLTextRules(
        paragraphs: names(sheetNamespace, ["si", "is", "text"]), textElements: names(sheetNamespace, ["t"]),
        excluded: names(sheetNamespace, ["rPh", "phoneticPr"]), separators: [])

    /// OpenDocument (odt, odp, ods): `text:p` and `text:h`, all their character data; note
    /// numbers, computed fields, tracked deletions, alternative texts and annotation metadata stay.
    static let openDocument = XMLTextRules(
        paragraphs: names(odfText, ["p", "h"]), textElements: nil,
        excluded: names(odfText, ["note-citation", "tracked-changes", "page-number", "page-count", "sequence", "date", "time",
                                  "bookmark-ref", "reference-ref", "sequence-ref", "note-ref"])
            .union(names("urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0", ["title", "desc"]))
            .union(names("http://purl.org/dc/elements/1.1/", ["creator", "date"]))
            .union(names("urn:oasis:names:tc:opendocument:xmlns:meta:1.0", ["date-string"])),
        separators: names(odfText, ["s", "tab", "line-break", "note", "soft-page-break"])
            .union(names("urn:oasis:names:tc:opendocument:xmlns:drawing:1.0", ["frame", "custom-shape", "a"]))
            .union(names("urn:oasis:names:tc:opendocument:xmlns:office:1.0", ["annotation"])))
}
