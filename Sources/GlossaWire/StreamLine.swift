/// One line of the `POST /glossa/v1/translate/stream` answer (newline-delimited JSON).
///
/// Three forms, told apart by which fields are present:
/// - a result: `{"index":0,"clientIdentifier":"a","translatedText":"Hola","sourceLanguage":"en","detectedSourceLanguage":"en"}`
///   (`detectedSourceLanguage` only when the request had no source, as in Google v2);
/// - an error for one input: `{"index":3,"clientIdentifier":"d","error":{"code":400,"reason":"unsupportedPair","message":"…"}}`;
/// - the terminal line, always last when the server finished: `{"done":true,"count":4,"errors":1}`.
///
/// A stream that ends without the terminal line was cut short (server stopped, connection lost).
public struct StreamLine: Codable, Sendable, Equatable {
    /// The input's position in the request's `q` (result and error lines).
    public var index: Int?
    /// The request's `clientIdentifiers[index]`, echoed back when it was given.
    public var clientIdentifier: String?
    /// The translation (result lines).
    public var translatedText: String?
    /// The language translated from: the given one or the detected one (result lines), BCP-47.
    public var sourceLanguage: String?
    /// The detected language when the request had no source (result lines), BCP-47.
    public var detectedSourceLanguage: String?
    /// Why this one input failed (error lines).
    public var error: StreamError?
    /// Present and true only on the terminal line.
    public var done: Bool?
    /// Lines sent before the terminal line (terminal line).
    public var count: Int?
    /// How many of those were error lines (terminal line).
    public var errors: Int?

    /// A result line.
    public static func result(index: Int, clientIdentifier: String?, translatedText: String,
                              sourceLanguage: String, detectedSourceLanguage: String?) -> StreamLine {
        StreamLine(index: index, clientIdentifier: clientIdentifier, translatedText: translatedText,
                   sourceLanguage: sourceLanguage, detectedSourceLanguage: detectedSourceLanguage)
    }

    /// An error line for one input.
    public static func failure(index: Int, clientIdentifier: String?, error: StreamError) -> StreamLine {
        StreamLine(index: index, clientIdentifier: clientIdentifier, error: error)
    }

    /// The terminal line.
    public static func terminal(count: Int, errors: Int) -> StreamLine {
        StreamLine(done: true, count: count, errors: errors)
    }

    /// Makes a line from its fields; prefer ``result(index:clientIdentifier:translatedText:sourceLanguage:detectedSourceLanguage:)``,
    /// ``failure(index:clientIdentifier:error:)`` and ``terminal(count:errors:)``.
    public init(index: Int? = nil, clientIdentifier: String? = nil, translatedText: String? = nil,
                sourceLanguage: String? = nil, detectedSourceLanguage: String? = nil, error: StreamError? = nil,
                done: Bool? = nil, count: Int? = nil, errors: Int? = nil) {
        self.index = index
        self.clientIdentifier = clientIdentifier
        self.translatedText = translatedText
        self.sourceLanguage = sourceLanguage
        self.detectedSourceLanguage = detectedSourceLanguage
        self.error = error
        self.done = done
        self.count = count
        self.errors = errors
    }
}

/// Why one input of a streamed batch failed.
public struct StreamError: Codable, Sendable, Equatable {
    /// The HTTP status the failure would have had as a whole request (400, 500, …).
    public var code: Int
    /// Why, as a stable wire string (``StreamErrorReason``: `unsupportedPair`, `unableToIdentifyLanguage`, …).
    public var reason: StreamErrorReason
    /// A readable sentence: what was given, what went wrong, what is accepted.
    public var message: String

    /// Makes an error.
    public init(code: Int, reason: StreamErrorReason, message: String) {
        self.code = code
        self.reason = reason
        self.message = message
    }
}
