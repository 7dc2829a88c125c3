import Foundation
import Zip

/// Tells what a document is from its bytes alone, as `file --mime-type` and APy do: a client's
/// file name or Content-Type may be wrong, the bytes are not. Zip containers are told apart by
/// the parts they hold (`word/document.xml`, ODF's `mimetype`), as APy's `translate_doc.py` does.
enum DocumentSniffer {
    /// The format of `bytes`, or the MIME type of what they are when Glossa does not translate it.
    static func identify(_ bytes: [UInt8]) -> Result<DocumentFormat, DocumentError> {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return identifyZip(bytes)
        }
        if let binary = binaryType(bytes) { return .failure(.unsupported(binary)) }
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        let trimmed = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("{\\rtf") { return .success(.rtf) }
        if looksLikeHTML(trimmed) { return .success(.html) }
        if trimmed.hasPrefix("\\documentclass") || trimmed.hasPrefix("\\begin{document}") { return .failure(.unsupported("text/x-tex")) }
        return .success(.txt)
    }

    private static func identifyZip(_ bytes: [UInt8]) -> Result<DocumentFormat, DocumentError> {
        guard let zip = try? ZipArchive(bytes: bytes) else { return .failure(.unsupported("application/zip")) }
        let markers: [(String, DocumentFormat)] = [("word/document.xml", .docx), ("ppt/presentation.xml", .pptx), ("xl/workbook.xml", .xlsx)]
        for (part, format) in markers where zip.entry(part) != nil { return .success(format) }
        if let entry = zip.entry("mimetype"), let value = try? zip.contents(of: entry) {
            let mime = String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let format = DocumentFormat.allCases.first(where: { $0.mimeType == mime }) { return .success(format) }
            return .failure(.unsupported(mime))
        }
        return .failure(.unsupported("application/zip"))
    }

    /// The MIME type of common binary formats (named as libmagic names them), or
    /// `application/octet-stream` for other bytes that are not text; nil for text.
    private static func binaryType(_ bytes: [UInt8]) -> String? {
        let signatures: [([UInt8], String)] = [
            (Array("%PDF-".utf8), "application/pdf"),
            ([0x89, 0x50, 0x4E, 0x47], "image/png"),
            ([0xFF, 0xD8, 0xFF], "image/jpeg"),
            (Array("GIF8".utf8), "image/gif"),
            ([0x1F, 0x8B], "application/gzip"),
            ([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1], "application/vnd.ms-office"),
            ([0x7F, 0x45, 0x4C, 0x46], "application/x-executable"),
            (Array("BZh".utf8), "application/x-bzip2"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "application/x-xz"),
            (Array("7z".utf8) + [0xBC, 0xAF], "application/x-7z-compressed"),
            (Array("Rar!".utf8), "application/x-rar"),
        ]
        for (signature, mime) in signatures where bytes.starts(with: signature) { return mime }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        // UTF-16 with a byte order mark is text; other NULs or control bytes make it binary.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return nil }
        let sample = bytes.prefix(8192)
        let controls = sample.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C && $0 != 0x1B }
        return controls.isEmpty ? nil : "application/octet-stream"
    }

    private static func looksLikeHTML(_ text: Substring) -> Bool {
        let lower = text.prefix(512).lowercased()
        if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") { return true }
        if lower.hasPrefix("<?xml"), lower.contains("<html") { return true }
        for tag in ["<head", "<body", "<title", "<p>", "<p ", "<div", "<h1", "<table", "<!--"] where lower.hasPrefix(tag) { return true }
        return false
    }
}
