import Foundation
import GlossaWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A typed, async client for the Google Cloud Translation v2 ("Basic") REST API: translate a
/// batch, detect a batch, list languages with localized names.
///
/// Points at Google (with an API key) or at any Glossa server, which speaks the same API:
///
/// ```swift
/// let client = GoogleTranslationClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let detected = try await client.detect(["¿Dónde está la biblioteca?"])   // [es]
/// let names = try await client.languages(displayLanguage: "en")            // es: Spanish, …
/// let out = try await client.translate(["¿Dónde está la biblioteca?"], to: "en", from: detected[0].language)
/// print(out[0].translatedText)
/// ```
///
/// Every method throws ``GoogleTranslationError`` (parsed from Google's error envelope, or a
/// transport failure) or `CancellationError`.
public struct GoogleTranslationClient: Sendable {
    /// Google's own endpoint (needs an API key).
    public static let googleEndpoint = URL(string: "https://translation.googleapis.com")!

    /// The server root; the client appends `/language/translate/v2…` as Google's clients do.
    public var baseURL: URL
    /// Sent as `X-Goog-Api-Key` when set.
    public var apiKey: String?

    private let session: URLSession

    /// Makes a client for `baseURL` (default: Google) with an optional API key.
    public init(baseURL: URL = GoogleTranslationClient.googleEndpoint, apiKey: String? = nil,
                session: URLSession = .shared) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.session = session
    }

    /// Translates `texts` into `target`, one result per text in the same order. `source` nil asks
    /// the server to detect each text's language (then ``Translation/detectedSourceLanguage`` is set).
    public func translate(_ texts: [String], to target: String, from source: String? = nil,
                          format: Format = .text, model: String? = nil) async throws -> [Translation] {
        let body = GoogleTranslateBody(q: texts, target: target, source: source, format: format.rawValue, model: model)
        let answer: GoogleV2Wire.TranslateResponse = try await call("", body: try JSONEncoder().encode(body))
        guard answer.data.translations.count == texts.count else {
            throw GoogleTranslationError.invalidResponse("Sent \(texts.count) texts, got \(answer.data.translations.count) translations.")
        }
        return answer.data.translations
    }

    /// Translates one text.
    public func translate(_ text: String, to target: String, from source: String? = nil,
                          format: Format = .text, model: String? = nil) async throws -> Translation {
        try await translate([text], to: target, from: source, format: format, model: model)[0]
    }

    /// Detects each text's language: exactly one detection per text, in order.
    public func detect(_ texts: [String]) async throws -> [Detection] {
        let answer: GoogleV2Wire.DetectResponse = try await call("/detect", body: try JSONEncoder().encode(GoogleDetectBody(q: texts)))
        guard answer.data.detections.count == texts.count else {
            throw GoogleTranslationError.invalidResponse("Sent \(texts.count) texts, got \(answer.data.detections.count) detections.")
        }
        return try answer.data.detections.enumerated().map { i, list in
            guard let first = list.first else {
                throw GoogleTranslationError.invalidResponse("Detection \(i + 1) is an empty list.")
            }
            return first
        }
    }

    /// Detects one text's language.
    public func detect(_ text: String) async throws -> Detection {
        try await detect([text])[0]
    }

    /// The supported languages; with `displayLanguage` each has its ``Language/name`` in that
    /// language (`languages(displayLanguage: "de")` names `es` "Spanisch").
    public func languages(displayLanguage: String? = nil) async throws -> [Language] {
        var query: [URLQueryItem] = []
        if let displayLanguage { query.append(URLQueryItem(name: "target", value: displayLanguage)) }
        let answer: GoogleV2Wire.LanguagesResponse = try await call("/languages", query: query, body: nil)
        return answer.data.languages
    }

    /// One call: GET without a body, POST JSON with one; decodes `{"data": …}` or the error envelope.
    private func call<T: Decodable>(_ path: String, query: [URLQueryItem] = [], body: Data?) async throws -> T {
        var components = URLComponents(url: baseURL.appendingPathComponent("language/translate/v2" + path),
                                       resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        let url = components.url!
        var request = URLRequest(url: url)
        request.httpMethod = body == nil ? "GET" : "POST"
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let apiKey { request.setValue(apiKey, forHTTPHeaderField: "X-Goog-Api-Key") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            try Task.checkCancellation()
            throw GoogleTranslationError.transport(error, url: url)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw GoogleTranslationError.from(statusCode: status, body: data)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw GoogleTranslationError.invalidResponse("The answer from \(url.absoluteString) is not a v2 \(T.self): \(error)")
        }
    }
}
