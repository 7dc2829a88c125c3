import Testing
import Zip
@testable import Documents

@Suite struct OfficeDocumentTests {
    static let w = #"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#
    static let documentXML = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <w:document \(w)><w:body>\
    <w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>The red house</w:t></w:r></w:p>\
    <w:p><w:r><w:t xml:space="preserve">I like </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>cats</w:t></w:r><w:r><w:t xml:space="preserve"> &amp; dogs.</w:t></w:r></w:p>\
    <w:p><w:r w:rsidR="00A1"><w:t>Hel</w:t></w:r><w:r w:rsidR="00B2"><w:t>lo</w:t></w:r><w:r><w:tab/><w:t>world</w:t></w:r></w:p>\
    <w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t>page</w:t></w:r></w:p>\
    <w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell one</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>42</w:t></w:r></w:p></w:tc></w:tr></w:tbl>\
    <w:p><w:r><w:t>before box</w:t></w:r><w:r><w:drawing><w:txbxContent><w:p><w:r><w:t>in the box</w:t></w:r></w:p></w:txbxContent></w:drawing></w:r><w:r><w:t>after</w:t></w:r></w:p>\
    </w:body></w:document>
    """
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47] + (0..<300).map { UInt8($0 % 251) }

    static func docx() -> [UInt8] {
        ZipWriter.archive([
            ("[Content_Types].xml", bytes(#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#)),
            ("word/document.xml", bytes(documentXML)),
            ("word/styles.xml", bytes(#"<w:styles \#(w)><w:style w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>"#)),
            ("word/media/image1.png", png),
        ])
    }

    @Test func docxTextIsTranslatedInPlaceAndEverythingElseStays() async throws {
        let fake = FakeTranslator()
        let input = Self.docx()
        let out = try await DocumentTranslator().translate(input, translate: fake.translate)
        #expect(out.format == .docx)
        let xml = try entryText(out.bytes, "word/document.xml")
        #expect(skeleton(Array(xml.utf8)) == skeleton(bytes(Self.documentXML)))
        for expected in ["<w:t>THE RED HOUSE</w:t>", "<w:t xml:space=\"preserve\">I LIKE </w:t>", "<w:t>CATS</w:t>",
                         "<w:t xml:space=\"preserve\"> &amp; DOGS.</w:t>", "<w:t>HELLO</w:t></w:r><w:r w:rsidR=\"00B2\"><w:t></w:t>",
                         "<w:tab/><w:t>WORLD</w:t>", "<w:instrText xml:space=\"preserve\"> PAGE </w:instrText>", "<w:t>PAGE</w:t>",
                         "<w:t>CELL ONE</w:t>", "<w:t>42</w:t>", "<w:t>BEFORE BOX</w:t>", "<w:t>IN THE BOX</w:t>", "<w:t>AFTER</w:t>"] {
            #expect(xml.contains(expected), "\(expected)")
        }
        // Entries without text are copied as stored; the paragraph without letters is not sent.
        let before = try ZipArchive(bytes: input), after = try ZipArchive(bytes: out.bytes)
        #expect(after.entries.map(\.path) == before.entries.map(\.path))
        for path in ["[Content_Types].xml", "word/styles.xml", "word/media/image1.png"] {
            #expect(try after.rawData(of: after.entry(path)!) == before.rawData(of: before.entry(path)!))
        }
        let sent = fake.calls.flatMap(\.0)
        #expect(!sent.contains("42"))
        #expect(sent.contains("I like <g1>cats<g2> &amp; dogs."))
        #expect(sent.contains("Hello<g2>world"))
        #expect(fake.calls.allSatisfy { $0.1 == .html })
    }

    @Test func xlsxSharedStringsAndInlineStringsButNotPhoneticGuides() async throws {
        let s = #"xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main""#
        let shared = #"<sst \#(s) count="2"><si><t>Total price</t></si><si><r><rPr><b/></rPr><t>Big</t></r><r><t xml:space="preserve"> house</t></r><rPh><t>fonetik</t></rPh></si></sst>"#
        let sheet = #"<worksheet \#(s)><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>inline text</t></is></c><c r="C1"><v>3.5</v></c></row></sheetData></worksheet>"#
        let input = ZipWriter.archive([("xl/workbook.xml", bytes("<workbook \(s)><sheets><sheet name=\"Prices\"/></sheets></workbook>")),
                                       ("xl/sharedStrings.xml", bytes(shared)), ("xl/worksheets/sheet1.xml", bytes(sheet))])
        let out = try await DocumentTranslator().translate(input, translate: FakeTranslator().translate)
        #expect(out.format == .xlsx)
        #expect(try entryText(out.bytes, "xl/sharedStrings.xml") == shared.replacing("Total price", with: "TOTAL PRICE")
            .replacing("<t>Big</t>", with: "<t>BIG</t>").replacing("> house<", with: "> HOUSE<"))
        #expect(try entryText(out.bytes, "xl/worksheets/sheet1.xml") == sheet.replacing("inline text", with: "INLINE TEXT"))
        #expect(try entryText(out.bytes, "xl/workbook.xml").contains("Prices"))
    }

    @Test func odtParagraphsWithSpacesNotesAndFieldsAndTheStoredMimetypeFirst() async throws {
        let ns = #"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0""#
        let content = #"<office:document-content \#(ns)><office:body><office:text><text:h>A title</text:h><text:p>one<text:s text:c="2"/>two <text:span>span</text:span> end<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>a note</text:p></text:note-body></text:note></text:p><text:p><text:page-number>7</text:page-number></text:p></office:text></office:body></office:document-content>"#
        let input = ZipWriter.archive([("mimetype", bytes("application/vnd.oasis.opendocument.text")), ("content.xml", bytes(content)),
                                       ("Pictures/x.png", Self.png)], deflated: false)
        let out = try await DocumentTranslator().translate(input, translate: FakeTranslator().translate)
        #expect(out.format == .odt)
        let xml = try entryText(out.bytes, "content.xml")
        #expect(xml == content.replacing("A title", with: "A TITLE").replacing(">one<", with: ">ONE<").replacing(">two <", with: ">TWO <")
            .replacing(">span<", with: ">SPAN<").replacing("> end<", with: "> END<").replacing("a note", with: "A NOTE"))
        let zip = try ZipArchive(bytes: out.bytes)
        #expect(zip.entries[0].path == "mimetype" && zip.entries[0].method == 0)
        #expect(try entryText(out.bytes, "mimetype") == "application/vnd.oasis.opendocument.text")
    }

    @Test func pptxSlidesButNotFieldsOrMasters() async throws {
        let a = #"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main""#
        let slide = #"<p:sld \#(a)><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>Good morning</a:t></a:r><a:br/><a:r><a:t>everyone</a:t></a:r><a:fld type="slidenum"><a:t>3</a:t></a:fld></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>"#
        let master = #"<p:sldMaster \#(a)><a:p><a:r><a:t>Click to edit</a:t></a:r></a:p></p:sldMaster>"#
        let input = ZipWriter.archive([("ppt/presentation.xml", bytes("<p:presentation \(a)/>")), ("ppt/slides/slide1.xml", bytes(slide)),
                                       ("ppt/slideMasters/slideMaster1.xml", bytes(master))])
        let out = try await DocumentTranslator().translate(input, translate: FakeTranslator().translate)
        #expect(out.format == .pptx)
        #expect(try entryText(out.bytes, "ppt/slides/slide1.xml") == slide.replacing("Good morning", with: "GOOD MORNING").replacing("everyone", with: "EVERYONE"))
        #expect(try entryText(out.bytes, "ppt/slideMasters/slideMaster1.xml") == master)
    }

    @Test func damagedAndBombLikeArchivesAreClearErrors() async throws {
        var input = Self.docx()
        input.removeLast(30)
        let damaged = await #expect(throws: DocumentError.self) { try await DocumentTranslator().translate(input, translate: FakeTranslator().translate) }
        // A cut end-of-directory record no longer identifies as a document: a zip of unknown kind.
        #expect(damaged?.code == .unsupportedType || damaged?.code == .damaged)
        var limits = DocumentTranslator.Limits()
        limits.maxUnpackedBytes = 100
        let big = await #expect(throws: DocumentError.self) { try await DocumentTranslator(limits: limits).translate(Self.docx(), translate: FakeTranslator().translate) }
        #expect(big?.code == .tooLarge)
        limits = DocumentTranslator.Limits()
        limits.maxBytes = 100
        let large = await #expect(throws: DocumentError.self) { try await DocumentTranslator(limits: limits).translate(Self.docx(), translate: FakeTranslator().translate) }
        #expect(large?.code == .tooLarge)
    }
}
