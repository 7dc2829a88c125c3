/// The document formats Glossa translates.
public enum DocumentFormat: String, Sendable, CaseIterable {
    case txt, html, rtf, docx, pptx, xlsx, odt, odp, ods

    /// The MIME type (what a download is labelled with, and what `file --mime-type` reports).
    public var mimeType: String {
        switch self {
        case .txt: "text/plain"
        case .html: "text/html"
        case .rtf: "text/rtf"
        case .docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        case .pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation"
        case .xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        case .odt: "application/vnd.oasis.opendocument.text"
        case .odp: "application/vnd.oasis.opendocument.presentation"
        case .ods: "application/vnd.oasis.opendocument.spreadsheet"
        }
    }

    /// The usual file name extension.
    public var fileExtension: String { rawValue }

    /// The format whose extension `name` ends with (`report.DOCX` → docx; `page.htm` → html).
    public init?(fileName name: String) {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        if let format = DocumentFormat(rawValue: ext) { self = format } else if ext == "htm" || ext == "xhtml" { self = .html } else if ext == "text" { self = .txt } else { return nil }
    }

    /// "txt, html, rtf, docx, …", for messages.
    public static let supportedList = allCases.map(\.rawValue).joined(separator: ", ")
}
