/// A failed database call. A struct over a private code, so cases can be added; callers ask the
/// question they care about (``isUnavailable``: answer 503 and retry later).
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    enum Code: Sendable {
        /// The server cannot be reached, the file cannot be opened or written, the connection
        /// broke, or a lock was not granted in time: the database is down for now.
        case unavailable
        /// A uniqueness or foreign-key rule refused the statement.
        case constraint
        /// Anything else (a bug in a statement, a schema newer than this program).
        case failed
    }

    let code: Code
    /// What the driver said. Never holds a bound value (a key's hash, a password).
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Whether the database is down for now (as opposed to a statement that can never work).
    public var isUnavailable: Bool { code == .unavailable }

    /// Whether a uniqueness or foreign-key rule refused the statement.
    public var isConstraintViolation: Bool { code == .constraint }

    /// A failure that is neither (a bug, or a schema this program does not know).
    public static func failed(_ message: String) -> DatabaseError { DatabaseError(.failed, message) }

    public var description: String { message }
}
