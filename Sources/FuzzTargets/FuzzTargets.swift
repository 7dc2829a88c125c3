import Foundation
@testable import ApertiumEngine
@testable import HTTPServer
import NeuralEngine
import TranslationCore

/// The code `make fuzz` drives with libFuzzer, one entry point per target, each taking any bytes.
/// The same functions replay the committed corpus and every crash reproducer in `swift test`
/// (FuzzRegressionTests), so a crash once found stays fixed.
///
/// Each target checks more than "no crash" where a cheap invariant exists (noted per target).
/// Internal entry points are reached with `@testable import`, so this target builds in debug
/// builds (SwiftPM's default and `make fuzz`'s), which is where it is used.
public enum FuzzTargets {
    /// Every target by name (the corpus folder under `Fuzz/corpus/` has the same name).
    public static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "request": RequestTarget.run,
        "framing": framing,
        "html": html,
        "text": text,
        "language-code": languageCode,
        "model": model,
    ]

    /// The HTTP framing checks and target decoding: the first line is the request target, each
    /// later line a header field (`name: value`).
    static func framing(_ data: [UInt8]) {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        let target = lines.isEmpty ? [] : lines.removeFirst()
        let fields = lines.map { line -> (name: [UInt8], value: [UInt8]) in
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return (line, []) }
            return (Array(line[..<colon]), Array(line[(colon + 1)...]))
        }
        _ = RequestFraming.check(version: data.count % 2 == 0 ? "HTTP/1.1" : "HTTP/1.0", target: target, fields: fields)
        // Invariant: the target as text keeps every byte (percent-encoded when not UTF-8).
        let (text, valid) = HTTPRequest.text(ofTarget: target)
        if valid { precondition(Array(text.utf8) == target, "a valid target was altered") }
        else { precondition(text.utf8.allSatisfy { $0 < 0x80 }, "an invalid target kept raw bytes") }
    }

    /// The HTML deformatter (Apertium's markup handling).
    static func html(_ data: [UInt8]) {
        _ = HTMLDeformatter.deformat(String(decoding: data, as: UTF8.self))
    }

    /// The plain-text deformatter, on raw bytes as on text.
    static func text(_ data: [UInt8]) {
        _ = data.withUnsafeBufferPointer { TextDeformatter.deformat(bytes: $0) }
        _ = TextDeformatter.deformat(String(decoding: data, as: UTF8.self))
    }

    /// Language codes, pairs and formats as clients send them. Invariant: a parsed code's BCP 47
    /// form parses back to the same code.
    static func languageCode(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        if let code = try? LanguageCode(parsing: text) {
            precondition((try? LanguageCode(parsing: code.bcp47)) == code, "\(code.bcp47) does not parse back")
        }
        _ = try? LanguagePair(parsing: text)
        _ = try? TextFormat(parsing: text)
    }

    /// The CTranslate2 model.bin reader and the model's config.json.
    static func model(_ data: [UInt8]) {
        _ = try? ModelBinary(data: Data(data), fileName: "fuzz/model.bin")
        _ = try? ModelConfig(json: Data(data), fileName: "fuzz/config.json")
    }
}
