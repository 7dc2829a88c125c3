/// A plain-text or HTML document in its own encoding. Text is cut into paragraphs at empty
/// lines (each translated on its own, as the engine would at a paragraph end anyway) and put
/// back between the original separators; HTML goes to the engine whole, which keeps its markup.
struct PlainDocument {
    private let encoding: TextEncoding
    private let isHTML: Bool
    /// Text: the paragraphs and, between them, the exact separators (`separators[i]` follows
    /// paragraph i). HTML: one segment, no separators.
    private let separators: [String]
    private(set) var segments: [Segment] = []

    init(bytes: [UInt8], html: Bool) {
        let (text, encoding) = TextEncoding.decode(bytes)
        self.encoding = encoding
        self.isHTML = html
        if html {
            separators = []
            segments = [Segment(kind: .html, pieces: [text])]
            return
        }
        var paragraphs: [String] = []
        var separators: [String] = []
        var current = ""
        var gap = ""
        // A separator is a run of line breaks and spaces holding at least two line breaks.
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" || (!gap.isEmpty && (character == " " || character == "\t")) {
                gap.append(character)
                continue
            }
            if !gap.isEmpty {
                if gap.filter({ $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).count >= 2 {
                    paragraphs.append(current)
                    separators.append(gap)
                    current = ""
                } else {
                    current += gap
                }
                gap = ""
            }
            current.append(character)
        }
        paragraphs.append(current)
        separators.append(gap)
        self.separators = separators
        segments = paragraphs.map { Segment(kind: .plainText, pieces: [$0]) }
    }

    func rebuilt(with translations: [[String]]) -> [UInt8] {
        if isHTML { return encoding.encode(translations.first?.first ?? "", html: true) }
        var text = ""
        for (i, separator) in separators.enumerated() {
            text += i < translations.count ? (translations[i].first ?? "") : segments[i].pieces[0]
            text += separator
        }
        return encoding.encode(text, html: false)
    }
}
