/// A file uploaded in a `multipart/form-data` body.
struct UploadedFile: Sendable {
    /// The part's `filename`, as the client sent it (never used as a path).
    var fileName: String
    /// The part's `Content-Type`, when given.
    var contentType: String?
    /// The file's bytes.
    var bytes: [UInt8]
}

/// `multipart/form-data` bodies (RFC 7578), the way browsers and `requests` upload files:
/// parts separated by `--boundary` lines, each with a `Content-Disposition: form-data;
/// name="…"; filename="…"` header. Parts with a filename are files; others are text fields.
enum MultipartForm {
    /// The fields and files of `body`.
    /// - Throws: ``APIError`` `.malformedBody` when the body does not follow the boundary, or a
    ///   field is not UTF-8.
    static func parse(_ body: [UInt8], contentType: String) throws(APIError) -> (fields: [(String, String)], files: [(String, UploadedFile)]) {
        guard let boundary = parameter("boundary", in: contentType), !boundary.isEmpty else {
            throw .malformedBody(.badValue, "The multipart body has no boundary in its Content-Type.")
        }
        let delimiter = Array("--\(boundary)".utf8)
        var fields: [(String, String)] = []
        var files: [(String, UploadedFile)] = []
        guard var start = find(delimiter, in: body, from: 0) else {
            throw .malformedBody(.badValue, "The multipart body does not start with its boundary.")
        }
        while true {
            var cursor = start + delimiter.count
            // `--` after a delimiter ends the body.
            if cursor + 1 < body.count, body[cursor] == 0x2D, body[cursor + 1] == 0x2D { break }
            guard let lineEnd = find([0x0D, 0x0A], in: body, from: cursor) else { break }
            cursor = lineEnd + 2
            guard let headersEnd = find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: cursor) else {
                throw .malformedBody(.badValue, "A multipart part has no end to its headers.")
            }
            let headers = String(decoding: body[cursor..<headersEnd], as: UTF8.self)
            let contentStart = headersEnd + 4
            guard let next = find([0x0D, 0x0A] + delimiter, in: body, from: contentStart) else {
                throw .malformedBody(.badValue, "A multipart part is not closed by its boundary.")
            }
            let content = Array(body[contentStart..<next])
            var name: String?, fileName: String?, type: String?
            for line in headers.split(separator: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    name = parameter("name", in: String(line))
                    fileName = parameter("filename", in: String(line))
                } else if lower.hasPrefix("content-type:") {
                    type = trim(line.dropFirst("content-type:".count))
                }
            }
            if let name {
                if let fileName {
                    files.append((name, UploadedFile(fileName: fileName, contentType: type, bytes: content)))
                } else {
                    guard let value = String(validating: content, as: UTF8.self) else {
                        throw .malformedBody(.encoding, "The multipart field \(name) is not valid UTF-8.")
                    }
                    fields.append((name, value))
                }
            }
            start = next + 2
        }
        return (fields, files)
    }

    /// The value of `name=value` or `name="value"` in a header value (`; `-separated).
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";") {
            guard let eq = piece.firstIndex(of: "=") else { continue }
            guard trim(piece[..<eq]).lowercased() == name else { continue }
            var value = trim(piece[piece.index(after: eq)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast()).replacing("\\\"", with: "\"")
            }
            return value
        }
        return nil
    }

    private static func trim(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var i = start
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first {
                var k = 1
                while k < needle.count && haystack[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
