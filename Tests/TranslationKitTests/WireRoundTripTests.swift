import Foundation
import GlossaWire
import HTTPServer
import Testing
import TranslationCore
@testable import ServerAPI
@testable import TranslationKit

/// The shapes the server writes and the SDK reads are one definition: what the server's code
/// writes, the SDK's code reads back to the same values, and the wire strings stay put.
@Suite struct WireRoundTripTests {
    private func decoded<T: Decodable>(_ type: T.Type, _ json: JSON) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.serialized().utf8))
    }

    @Test func googleV2BodiesReadBackAsWritten() throws {
        let translations = GoogleV2Wire.TranslateResponse(translations: [
            .init(translatedText: "Hola", detectedSourceLanguage: "en", model: "nmt"), .init(translatedText: "<b>x</b>"),
        ])
        #expect(translations.json.serialized() == #"{"data":{"translations":[{"translatedText":"Hola","detectedSourceLanguage":"en","model":"nmt"},{"translatedText":"<b>x</b>"}]}}"#)
        #expect(try decoded(GoogleV2Wire.TranslateResponse.self, translations.json) == translations)
        let detections = GoogleV2Wire.DetectResponse(detections: [[.init(language: "es", confidence: 0.75, isReliable: true)], [.init(language: "und", confidence: 0, isReliable: false)]])
        #expect(detections.json.serialized() == #"{"data":{"detections":[[{"language":"es","isReliable":true,"confidence":0.75}],[{"language":"und","isReliable":false,"confidence":0}]]}}"#)
        #expect(try decoded(GoogleV2Wire.DetectResponse.self, detections.json) == detections)
        let languages = GoogleV2Wire.LanguagesResponse(languages: [.init(language: "en", name: "inglés"), .init(language: "zh-TW")])
        #expect(try decoded(GoogleV2Wire.LanguagesResponse.self, languages.json) == languages)
        let error = GoogleV2Wire.ErrorResponse(code: 403, message: "Daily Limit Exceeded", domain: "usageLimits", reason: "dailyLimitExceeded", status: "PERMISSION_DENIED")
        #expect(try decoded(GoogleV2Wire.ErrorResponse.self, error.json) == error)
        // The server's own error renderer writes exactly this type, which the SDK's error reads.
        let rendered = GoogleV2Error.response(for: .quotaExceeded(), request: HTTPRequest(method: "GET", path: "/", query: "prettyPrint=false"))
        let sdk = GoogleTranslationError.from(statusCode: rendered.status, body: Data(rendered.bodyBytes))
        #expect(sdk == .forbidden && sdk.reason == "dailyLimitExceeded" && sdk.message == "Daily Limit Exceeded")
    }

    /// Changing one of these strings breaks deployed clients: this list changes only on purpose.
    @Test func streamingReasonsAreStableWireStrings() {
        #expect(StreamErrorReason.all.map(\.rawValue) == [
            "invalidLanguage", "invalidArgument", "invalidInput", "unsupportedSourceLanguage", "unsupportedTargetLanguage",
            "unsupportedPair", "unableToIdentifyLanguage", "limitExceeded", "engineFailure", "timeout", "cancelled", "notInstalled",
            "missing_parameter", "malformed_request", "payload_too_large", "too_many_segments", "unauthorized", "forbidden",
            "rate_limited", "quota_exceeded", "unavailable",
        ])
        for kind in TranslationCore.TranslationError.Kind.allCases {
            #expect(StreamErrorReason.all.contains(StreamErrorReason(kind)), "\(kind)")
        }
    }

    /// Every service error the server writes on a line comes back to the SDK as the Apple error
    /// the local backend raises for it.
    @Test func everyKindRoundTripsThroughTheServersLineAndTheSDKsDecoder() throws {
        for kind in TranslationCore.TranslationError.Kind.allCases {
            let error = TranslationCore.TranslationError(kind, "because \(kind)")
            let line = StreamingAPI.encode(.failure(index: 0, clientIdentifier: nil, error: StreamingError.wire(error)))
            var decoder = StreamDecoder(count: 1, server: "test")
            _ = try decoder.consume(.status(200))
            let item = try #require(try decoder.consume(.line(Data(line.dropLast()))))
            let expected = TranslationKit.TranslationError.from(error)
            let got = #expect(throws: expected) { try item.outcome.get() }
            #expect(got?.failureReason == "because \(kind)")
        }
    }

    /// A refused batch (the server's envelope) reads back as the same Apple error too.
    @Test func refusalsRoundTrip() {
        let cases: [(APIError, TranslationKit.TranslationError)] = [
            (.translation(TranslationCore.TranslationError(.unsupportedPair, "no pair")), .unsupportedLanguagePairing),
            (.translation(TranslationCore.TranslationError(.unsupportedSourceLanguage, "no source")), .unsupportedSourceLanguage),
            (.missingParameter("target"), .internalError),
            (.rateLimited(retryAfter: 3), .internalError),
        ]
        for (error, expected) in cases {
            let response = StreamingError.response(for: error)
            let got = StreamDecoder.refusal(status: response.status, body: Data(response.bodyBytes), server: "test")
            #expect(got == expected, "\(error)")
            #expect(got.failureReason == error.message)
        }
    }
}
