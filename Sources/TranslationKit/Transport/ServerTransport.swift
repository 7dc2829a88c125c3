import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GlossaWire
import TranslationCore

/// A Glossa server: batches go through `POST /glossa/v1/translate/stream` (results as they are
/// ready), pairs through `GET /glossa/v1/pairs`, detection through Google v2's `/detect`.
struct ServerTransport: SessionTransport {
    let baseURL: URL
    let apiKey: String?

    var location: InstallLocation { .server(baseURL.absoluteString) }

    func translateAll(_ texts: [String], from source: LanguageCode?, to target: LanguageCode, glossary: [GlossaryEntry]) async throws -> [Translated] {
        var results = [Translated?](repeating: nil, count: texts.count)
        // Returning early (on the first error) ends the iteration, which cancels the rest.
        for try await item in stream(texts, from: source, to: target, glossary: glossary) {
            results[item.index] = try item.outcome.get()
        }
        guard let complete = results as? [Translated] else {
            throw TranslationError.internalError.with("The server at \(baseURL.absoluteString) did not answer every text.")
        }
        return complete
    }

    /// Texts per streaming request: the server's limit (`StreamingAPI.maxTexts`). A larger batch
    /// is sent as consecutive requests on the same stream, so no text is refused or dropped.
    static let maxTextsPerRequest = 1024

    func stream(_ texts: [String], from source: LanguageCode?, to target: LanguageCode, glossary: [GlossaryEntry]) -> AsyncThrowingStream<StreamedItem, any Error> {
        let (stream, continuation) = AsyncThrowingStream<StreamedItem, any Error>.makeStream()
        let task = Task { [baseURL] in
            do {
                for start in stride(from: 0, to: texts.count, by: Self.maxTextsPerRequest) {
                    let chunk = Array(texts[start..<min(texts.count, start + Self.maxTextsPerRequest)])
                    var decoder = StreamDecoder(count: chunk.count, server: baseURL.absoluteString)
                    for try await event in LineStream.open(request(for: chunk, from: source, to: target, glossary: glossary)) {
                        if var item = try decoder.consume(event) {
                            item.index += start
                            continuation.yield(item)
                        }
                    }
                    try decoder.finish()
                }
                continuation.finish()
            } catch let error as TranslationError {
                continuation.finish(throwing: error)
            } catch is CancellationError {
                continuation.finish(throwing: CancellationError())
            } catch {
                continuation.finish(throwing: TranslationError.internalError.with(
                    "Could not reach the Glossa server at \(baseURL.absoluteString): \(error.localizedDescription)"))
            }
        }
        // Why: ending this stream cancels the task, whose iteration of the answer's lines then
        // ends, which cancels the HTTP request and closes the connection: the server stops.
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func request(for texts: [String], from source: LanguageCode?, to target: LanguageCode, glossary: [GlossaryEntry]) -> URLRequest {
        let body = StreamTranslateRequest(q: texts, source: source?.bcp47, target: target.bcp47, format: "text",
                                          glossary: glossary.isEmpty ? nil : glossary.map { [$0.source, $0.target] })
        var request = URLRequest(url: baseURL.appendingPathComponent("glossa/v1/translate/stream"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Accept")
        if let apiKey { request.setValue(apiKey, forHTTPHeaderField: "X-Goog-Api-Key") }
        // Strings and optional strings only: encoding cannot fail.
        request.httpBody = try? JSONEncoder().encode(body)
        return request
    }

    func installedPairs() async throws -> [LanguagePair] {
        var request = URLRequest(url: baseURL.appendingPathComponent("glossa/v1/pairs"))
        if let apiKey { request.setValue(apiKey, forHTTPHeaderField: "X-Goog-Api-Key") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            try Task.checkCancellation()
            throw TranslationError.internalError.with("Could not reach the Glossa server at \(baseURL.absoluteString): \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, let answer = try? JSONDecoder().decode(PairsResponse.self, from: data) else {
            throw TranslationError.internalError.with("GET \(request.url!.absoluteString) answered HTTP \(status), not a pair list.")
        }
        return answer.pairs.compactMap { pair in
            guard let s = try? LanguageCode(parsing: pair.source), let t = try? LanguageCode(parsing: pair.target) else { return nil }
            return LanguagePair(source: s, target: t)
        }
    }

    func isInstalled(from source: LanguageCode, to target: LanguageCode) async throws -> Bool {
        try await installedSnapshot()(source, target)
    }

    func installedSnapshot() async throws -> @Sendable (LanguageCode, LanguageCode) -> Bool {
        let pairs = try await installedPairs()
        return { source, target in pairs.contains { $0.source.serves(source) && $0.target.serves(target) } }
    }

    func detect(_ text: String) async throws -> LanguageCode? {
        let client = GoogleTranslationClient(baseURL: baseURL, apiKey: apiKey)
        do {
            let detection = try await client.detect(text)
            // Google's "und" (undetermined) is a valid ISO 639 code, but names no language.
            guard detection.language != "und" else { return nil }
            return try? LanguageCode(parsing: detection.language)
        } catch let error as GoogleTranslationError {
            throw TranslationError.internalError.with(error.description)
        }
    }

    /// A server reads its pairs itself; nothing to do here.
    func reload() async throws {}
}
