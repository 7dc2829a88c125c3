/// Why a document could not be translated. Each protocol renders it in its own envelope (APy's
/// 400 "Invalid file type …" and 413 "That file is too large", LibreTranslate's and DeepL's own).
public struct DocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, for statuses and metrics.
    public enum Code: Sendable, Equatable {
        /// Not a format Glossa translates; `mimeType` says what it looked like.
        case unsupportedType
        /// Larger than the limit, packed or unpacked.
        case tooLarge
        /// A supported format whose contents are broken (a truncated zip, a CRC error, no text part).
        case damaged
    }

    /// Why, as a bounded code.
    public let code: Code
    /// What went wrong, in a sentence that names the limit or the type.
    public let message: String
    /// For ``Code/unsupportedType``: the MIME type the bytes were identified as
    /// (`application/pdf`, `image/png`, `application/octet-stream`).
    public let mimeType: String?

    init(_ code: Code, _ message: String, mimeType: String? = nil) {
        self.code = code
        self.message = message
        self.mimeType = mimeType
    }

    /// A type Glossa does not translate.
    static func unsupported(_ mimeType: String) -> DocumentError {
        DocumentError(.unsupportedType, "Documents of type \(mimeType) cannot be translated; supported: \(DocumentFormat.supportedList).",
                      mimeType: mimeType)
    }

    /// The message.
    public var description: String { message }
}
