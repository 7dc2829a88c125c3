import Foundation
import GlossaWire
import Testing
@testable import TranslationKit

/// The client's reading of the streaming protocol and of Google's error envelope, on plain values.
@Suite struct WireTests {
    private func line(_ json: String) -> LineStream.Event { .line(Data(json.utf8)) }

    @Test func decodesResultErrorAndTerminalLines() throws {
        var decoder = StreamDecoder(count: 2, server: "test")
        #expect(try decoder.consume(.status(200)) == nil)
        let first = try decoder.consume(line(#"{"index":1,"translatedText":"Hola","sourceLanguage":"en"}"#))
        #expect(first?.index == 1)
        #expect(try first?.outcome.get() == Translated(text: "Hola", source: "en"))
        let second = try decoder.consume(line(#"{"index":0,"error":{"code":400,"reason":"unsupportedPair","message":"no"}}"#))
        #expect(throws: TranslationError.unsupportedLanguagePairing) { try second?.outcome.get() }
        #expect(try decoder.consume(line(#"{"done":true,"count":2,"errors":1}"#)) == nil)
        try decoder.finish()
    }

    @Test func rejectsRepeatedIndicesAndMissingTerminalLine() throws {
        var decoder = StreamDecoder(count: 2, server: "test")
        _ = try decoder.consume(.status(200))
        _ = try decoder.consume(line(#"{"index":0,"translatedText":"a","sourceLanguage":"en"}"#))
        #expect(throws: TranslationError.internalError) {
            try decoder.consume(line(#"{"index":0,"translatedText":"a","sourceLanguage":"en"}"#))
        }
        let error = #expect(throws: TranslationError.internalError) { try decoder.finish() }
        #expect(error?.failureReason?.contains("stopped after 1 of 2") == true)
    }

    @Test func aRefusedBatchBecomesTheKindInTheEnvelope() throws {
        var decoder = StreamDecoder(count: 1, server: "test")
        _ = try decoder.consume(.status(400))
        _ = try decoder.consume(line(#"{"error":{"code":400,"message":"No engine serves ja","errors":[{"reason":"unsupportedSourceLanguage"}]}}"#))
        let error = #expect(throws: TranslationError.unsupportedSourceLanguage) { try decoder.finish() }
        #expect(error?.failureReason == "No engine serves ja")
    }

    @Test func parsesGooglesErrorEnvelope() {
        let body = #"{"error":{"code":403,"message":"Daily Limit Exceeded","errors":[{"message":"Daily Limit Exceeded","domain":"usageLimits","reason":"dailyLimitExceeded"}],"status":"PERMISSION_DENIED"}}"#
        let error = GoogleTranslationError.from(statusCode: 403, body: Data(body.utf8))
        #expect(error == .forbidden)
        #expect(error.reason == "dailyLimitExceeded")
        #expect(error.status == "PERMISSION_DENIED")
        #expect(error.message == "Daily Limit Exceeded")
        let plain = GoogleTranslationError.from(statusCode: 502, body: Data("Bad Gateway".utf8))
        #expect(plain == .serverError)
        #expect(plain.message == "Bad Gateway")
        #expect(GoogleTranslationError.from(statusCode: 429, body: Data()) == .rateLimited)
    }

    @Test func unreachableGoogleEndpointIsATransportError() async {
        let client = GoogleTranslationClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        await #expect(throws: GoogleTranslationError.transport) { try await client.languages() }
    }
}
