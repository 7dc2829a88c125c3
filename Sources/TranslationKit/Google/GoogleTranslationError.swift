import Foundation
import GlossaWire

/// A failure of a Google v2 call, parsed from Google's error envelope
/// (`{"error":{"code":400,"message":"…","errors":[{"reason":"invalid",…}],"status":"INVALID_ARGUMENT"}}`),
/// or a failure to reach the server or read its answer.
///
/// ```swift
/// do {
///     _ = try await client.translate(["Hello"], to: "xx")
/// } catch GoogleTranslationError.badRequest {
///     print("rejected")
/// } catch let error as GoogleTranslationError {
///     print(error.statusCode ?? 0, error.message)
/// }
/// ```
public struct GoogleTranslationError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    private enum Code: String, Sendable {
        case badRequest, unauthenticated, forbidden, notFound, rateLimited, serverError, transport, invalidResponse
    }

    /// One entry of the envelope's `errors` list (`message`, `domain`, `reason`): Google's
    /// `reason` (`invalid`, `forbidden`, `dailyLimitExceeded`); Glossa servers put a
    /// `StreamErrorReason` there on their streaming endpoint.
    public typealias Detail = GoogleV2Wire.ErrorResponse.Item

    private let code: Code
    /// The HTTP status, when the server answered.
    public let statusCode: Int?
    /// The envelope's `message`, or what went wrong on this side.
    public let message: String
    /// The envelope's `status` (`INVALID_ARGUMENT`, `PERMISSION_DENIED`), when present.
    public let status: String?
    /// The envelope's `errors` list.
    public let details: [Detail]

    private init(_ code: Code, statusCode: Int? = nil, message: String = "", status: String? = nil, details: [Detail] = []) {
        self.code = code
        self.statusCode = statusCode
        self.message = message
        self.status = status
        self.details = details
    }

    /// HTTP 400: a parameter was rejected (bad language, too many texts, invalid value).
    public static let badRequest = GoogleTranslationError(.badRequest)
    /// HTTP 401: the credentials were missing or not accepted.
    public static let unauthenticated = GoogleTranslationError(.unauthenticated)
    /// HTTP 403: the key is not allowed, or a quota (`dailyLimitExceeded`) ran out.
    public static let forbidden = GoogleTranslationError(.forbidden)
    /// HTTP 404: wrong base URL or path.
    public static let notFound = GoogleTranslationError(.notFound)
    /// HTTP 429: too many requests.
    public static let rateLimited = GoogleTranslationError(.rateLimited)
    /// HTTP 5xx (and other unexpected statuses): the server failed.
    public static let serverError = GoogleTranslationError(.serverError)
    /// The server could not be reached, or the connection broke.
    public static let transport = GoogleTranslationError(.transport)
    /// The answer was not what the v2 API defines (not JSON, wrong counts).
    public static let invalidResponse = GoogleTranslationError(.invalidResponse)

    /// The first `reason` of the envelope's `errors`, when there is one.
    public var reason: String? { details.first?.reason }

    /// `Google v2 HTTP 400 INVALID_ARGUMENT: <message>`.
    public var description: String {
        let where_ = statusCode.map { "HTTP \($0)" } ?? code.rawValue
        return "Google v2 \(where_)\(status.map { " \($0)" } ?? ""): \(message)"
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// Equal when the classes are (``badRequest``, ``forbidden``, …); details may differ.
    public static func == (lhs: GoogleTranslationError, rhs: GoogleTranslationError) -> Bool { lhs.code == rhs.code }

    /// Lets `catch GoogleTranslationError.forbidden` match any error of that class.
    public static func ~= (pattern: GoogleTranslationError, value: any Error) -> Bool {
        (value as? GoogleTranslationError).map { $0.code == pattern.code } ?? false
    }

    /// The error for a non-2xx answer: the envelope when the body has one, else the body's text.
    static func from(statusCode: Int, body: Data) -> GoogleTranslationError {
        let code: Code
        switch statusCode {
        case 400: code = .badRequest
        case 401: code = .unauthenticated
        case 403: code = .forbidden
        case 404: code = .notFound
        case 429: code = .rateLimited
        default: code = .serverError
        }
        if let envelope = try? JSONDecoder().decode(GoogleV2Wire.ErrorResponse.self, from: body) {
            return GoogleTranslationError(code, statusCode: statusCode, message: envelope.error.message ?? "",
                                          status: envelope.error.status, details: envelope.error.errors ?? [])
        }
        let text = String(decoding: body.prefix(300), as: UTF8.self)
        return GoogleTranslationError(code, statusCode: statusCode, message: text.isEmpty ? "no error body" : text)
    }

    /// A failure to reach the server.
    static func transport(_ error: any Error, url: URL) -> GoogleTranslationError {
        GoogleTranslationError(.transport, message: "Could not reach \(url.absoluteString): \(error.localizedDescription)")
    }

    /// An answer that does not follow the v2 API.
    static func invalidResponse(_ message: String) -> GoogleTranslationError {
        GoogleTranslationError(.invalidResponse, message: message)
    }
}
