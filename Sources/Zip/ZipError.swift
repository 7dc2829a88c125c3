/// Why a zip archive could not be read: what is wrong, in words, without the archive's name
/// (callers say what the archive is: a model package, an uploaded document).
public struct ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong (`not a zip file (too short)`, `entry word/document.xml: CRC mismatch (damaged data)`).
    public let message: String
    /// Why, as a bounded code.
    public let code: Code

    /// The kinds of problem.
    public enum Code: Sendable, Equatable {
        /// The bytes are not a zip archive at all.
        case notZip
        /// The archive is truncated, inconsistent or fails its CRC.
        case damaged
        /// A feature this reader does not implement (ZIP64, encryption, other compression).
        case unsupported
        /// Unpacking would pass the caller's limit on uncompressed bytes.
        case tooLarge
    }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
