import Foundation
import GlossaWire
import HTTPServer
import TranslationCore
import TranslationService

/// Glossa's own endpoints for SDK clients (TranslationKit's `.server` backend):
/// `POST /glossa/v1/translate/stream` answers a batch as newline-delimited JSON, one line per
/// text **as soon as it is ready** (chunked transfer encoding), and `GET /glossa/v1/pairs` lists
/// every translatable direction. Wire types: `GlossaWire.StreamTranslateRequest`, `StreamLine`,
/// `PairsResponse`.
struct StreamingAPI: Sendable {
    let service: TranslationService
    /// The glossaries `glossaryId` names.
    let glossaries: GlossaryAccess
    /// Most texts in one streamed batch.
    static let maxTexts = 1024
    /// Texts translated at once per batch; a batch left by its client stops after these.
    static let maxConcurrent = 8

    func stream(_ request: RoutedRequest) async throws -> EndpointResult {
        let batch = try StreamingRequest.parse(request.http, maxTexts: Self.maxTexts)
        let outcomes = service.translateEach(batch.texts, from: batch.source, to: batch.target,
                                             options: TranslationOptions(format: batch.format, glossary: try await glossary(batch, request)),
                                             maxConcurrent: Self.maxConcurrent)
        let body = Self.lines(outcomes, batch: batch)
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/x-ndjson; charset=utf-8",
                                                           "Cache-Control": "no-cache"], stream: body)
        return EndpointResult(response: response, characters: request.billedCharacters)
    }

    /// The glossary of a batch: its own entries, or the stored one it names, for its pair.
    private func glossary(_ batch: StreamingRequest, _ request: RoutedRequest) async throws -> Glossary? {
        guard let source = batch.source else { return nil }
        var entries = batch.glossaryEntries ?? []
        if let id = batch.glossaryID {
            let owner = glossaries.owner(request)
            let (s, t) = (source.language.lowercased(), batch.target.language.lowercased())
            guard let stored = try await glossaries.run({ try await $0.entries(id: id, owner: owner, source: s, target: t) }) else {
                throw APIError.translation(TranslationError(.invalidArgument, "No glossary \(id) for \(s) to \(t)."))
            }
            let given = Set(entries.map(\.source))
            entries += stored.filter { !given.contains($0.source) }
        }
        return entries.isEmpty ? nil : Glossary(source: source.base, target: batch.target.base, entries: entries)
    }

    func pairs() -> EndpointResult {
        // Exactly the directions that translate: the listed codes, with the route's languages.
        let pairs = service.directions().map {
            PairsResponse.Pair(source: $0.source.bcp47, target: $0.target.bcp47,
                               path: [$0.source.bcp47] + $0.route.path.dropFirst().dropLast().map(\.bcp47) + [$0.target.bcp47])
        }
        let body = (try? JSONEncoder().encode(PairsResponse(pairs: pairs))) ?? Data("{\"pairs\":[]}".utf8)
        return EndpointResult(response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"],
                                                     body: Array(body)))
    }

    /// One NDJSON line per outcome as it comes, then the terminal line.
    ///
    /// Cancellation chain (why the client closing its connection stops the engines): the HTTP
    /// server cancels the task that reads this stream, this stream's termination cancels the
    /// producer, and the producer's cancelled iteration of `translateEach` stops the batch from
    /// starting any further text.
    static func lines(_ outcomes: AsyncStream<IndexedTranslation>, batch: StreamingRequest) -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let producer = Task {
            var count = 0
            var errors = 0
            for await outcome in outcomes {
                let id = batch.clientIdentifiers?[outcome.index] ?? nil
                let line: StreamLine
                switch outcome.result {
                case .success(let result):
                    line = .result(index: outcome.index, clientIdentifier: id, translatedText: result.translatedText,
                                   sourceLanguage: (result.source ?? .undetermined).bcp47,
                                   detectedSourceLanguage: batch.source == nil ? (result.source ?? .undetermined).bcp47 : nil)
                case .failure(let error):
                    errors += 1
                    line = .failure(index: outcome.index, clientIdentifier: id, error: StreamingError.wire(error))
                }
                count += 1
                continuation.yield(encode(line))
            }
            // A cancelled batch has no terminal line: its absence tells a reader it was cut short.
            if !Task.isCancelled { continuation.yield(encode(.terminal(count: count, errors: errors))) }
            continuation.finish()
        }
        continuation.onTermination = { _ in producer.cancel() }
        return stream
    }

    static func encode(_ line: StreamLine) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // StreamLine holds only strings, integers and booleans: encoding cannot fail.
        return Array((try? encoder.encode(line)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
    }
}
