import Foundation
import GlossaWire
import TranslationCore

/// Turns the events of a `/glossa/v1/translate/stream` answer into items, checking the
/// protocol as it goes: a 200 status first, each index once and in range, a terminal line last.
/// A plain value so the protocol rules are tested without a server.
struct StreamDecoder {
    let count: Int
    let server: String
    private var status: Int?
    private var errorBody = Data()
    private var seen: Set<Int> = []
    private var done = false

    init(count: Int, server: String) {
        self.count = count
        self.server = server
    }

    /// The item an event carries, if any.
    /// - Throws: ``TranslationError`` when the server refused the batch or broke the protocol.
    mutating func consume(_ event: LineStream.Event) throws -> StreamedItem? {
        switch event {
        case .status(let code):
            status = code
            return nil
        case .line(let data):
            guard status == 200 else {
                // Why keep it: a refused batch answers one Google-style error envelope.
                errorBody.append(data)
                return nil
            }
            if data.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { return nil }
            guard let line = try? JSONDecoder().decode(StreamLine.self, from: data) else {
                throw violation("a line is not JSON: \(String(decoding: data.prefix(120), as: UTF8.self))")
            }
            if line.done == true {
                done = true
                return nil
            }
            guard let index = line.index, (0..<count).contains(index), seen.insert(index).inserted else {
                throw violation("a line has a missing, repeated or out-of-range index (\(line.index.map(String.init) ?? "none"))")
            }
            if let error = line.error {
                return StreamedItem(index: index, outcome: .failure(TranslationError.from(reason: error.reason, message: error.message)))
            }
            guard let text = line.translatedText, let source = line.sourceLanguage.flatMap({ try? LanguageCode(parsing: $0) }) else {
                throw violation("line \(index) has no translatedText or sourceLanguage")
            }
            return StreamedItem(index: index, outcome: Translated.outcome(text: text, source: source))
        }
    }

    /// Checks the end of the answer.
    mutating func finish() throws {
        guard let status else { throw violation("no answer") }
        guard status == 200 else { throw Self.refusal(status: status, body: errorBody, server: server) }
        guard done else {
            throw TranslationError.internalError.with("The Glossa server at \(server) stopped after \(seen.count) of \(count) results.")
        }
    }

    private func violation(_ what: String) -> TranslationError {
        TranslationError.internalError.with("The Glossa server at \(server) broke the streaming protocol: \(what).")
    }

    /// The error for a refused batch, from its Google-style envelope (`errors[0].reason` is a
    /// ``StreamErrorReason``).
    static func refusal(status: Int, body: Data, server: String) -> TranslationError {
        guard let envelope = try? JSONDecoder().decode(GoogleV2Wire.ErrorResponse.self, from: body) else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            return TranslationError.internalError.with("The Glossa server at \(server) answered HTTP \(status): \(text)")
        }
        return TranslationError.from(reason: StreamErrorReason(rawValue: envelope.error.errors?.first?.reason ?? ""),
                                     message: envelope.error.message ?? "HTTP \(status)")
    }
}
