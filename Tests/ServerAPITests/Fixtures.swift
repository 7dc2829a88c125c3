import AccessControl
import HTTPServer
import HTTPTestSupport
import ServerAPI
import TranslationCore
import TranslationService
import TranslationTesting

/// A deterministic engine for protocol tests: prefixes the target code (`hello` → `es:hello`).
/// With `showsMarks`, a request that asks for Apertium's marks gets `*` after the prefix.
func prefixEngine(served: [LanguagePair] = [LanguagePair(source: "en", target: "es"), LanguagePair(source: "es", target: "en"),
                                            LanguagePair(source: "en", target: "fr")],
                  showsMarks: Bool = false) -> FakeEngine {
    FakeEngine(served: served, style: .prefixed, marksUnknownWords: showsMarks)
}

/// Analysis modes that answer as Apertium's would, word by word: the analyser gives
/// `^w/w<n>$` per word and the deformatter's `^./.<sent>$`, the tagger `^w<n>$`, the generator
/// strips `^…<tags>$` to the lemma, the dictionary adds an upper-cased translation.
struct FakeModes: LanguageModeRunning, PipelineReporting {
    func languageModes() async -> [LanguageModeInfo] {
        [LanguageModeInfo(kind: .analyzer, key: "eng", name: "eng-morph"), LanguageModeInfo(kind: .tagger, key: "eng", name: "eng-tagger"),
         LanguageModeInfo(kind: .generator, key: "spa", name: "spa-gener"), LanguageModeInfo(kind: .analyzer, key: "eng-spa", name: "eng-spa-morph"),
         LanguageModeInfo(kind: .bilingual, key: "eng-spa", name: "eng-spa-autobil")]
    }

    func runLanguageMode(_ name: String, input: String, as format: LanguageModeInput) async throws -> String {
        let words = input.split(separator: " ").map(String.init)
        switch name {
        case "eng-morph", "eng-spa-morph":
            return words.map { $0 == "zorblax" ? "^\($0)/*\($0)$" : "^\($0)/\($0)<n>$" }.joined(separator: " ") + "^./.<sent>$"
        case "eng-tagger": return words.map { "^\($0)<n>$" }.joined(separator: " ") + "^.<sent>$"
        case "spa-gener":
            return input.replacing(/\^([^<$]*)[^$]*\$/) { String($0.output.1) }
        case "eng-spa-autobil":
            return input.replacing(/\^([^<$]*)([^$]*)\$/) { "^\($0.output.1)\($0.output.2)/\($0.output.1.uppercased())\($0.output.2)$" }
        default: throw TranslationError(.notInstalled, "No mode \(name).")
        }
    }

    func runningPipelines() async -> [String: Int] { ["eng-spa": 1] }

    func debugPipeline(_ pair: LanguagePair, input: String) async throws -> [(command: [String], output: String)] {
        [(["apertium-deshtml"], input + ".[]"), (["lt-proc", "x.bin"], "^\(input)/\(input)<n>$"), (["apertium-rehtml-noent"], input)]
    }

    /// The target's code, `*` when marking, the text, and `.[]` when it was deformatted.
    func translateRaw(_ text: String, pair: LanguagePair, markUnknownWords: Bool, deformat: Bool) async throws -> String {
        guard pair.source.apertiumCode == "eng" else { throw TranslationError(.notInstalled, "No mode for \(pair).") }
        return "\(pair.target.apertiumCode):\(markUnknownWords ? "*" : "")\(text)\(deformat ? ".[]" : "")"
    }
}

extension FakeDetector {
    /// Words decide the language: `hola` Spanish, `bonjour` French, empty unknown, else English.
    static var words: FakeDetector {
        FakeDetector([.containing("hola", Detection(language: "es", confidence: 0.75, isReliable: true)),
                      .containing("bonjour", Detection(language: "fr", confidence: 0.5, isReliable: false)),
                      .otherwise(Detection(language: "en", confidence: 0.9, isReliable: true,
                                           alternatives: [.init(language: "fr", confidence: 0.05)]))])
    }
}

/// ServerTestSupport's live server, named once here so every file of these tests has it.
typealias LiveServer = ServerTestSupport.LiveServer

/// A live server over the fake service: the protocol tests' settings and requests.
extension LiveServer {
    static func start(maxBody: Int = 4096, engine: any TranslationEngine = prefixEngine(),
                      middleware: [any Middleware] = [], access: AccessController? = nil,
                      api base: ServerAPIConfiguration = ServerAPIConfiguration()) async throws -> LiveServer {
        let service = await TranslationService(engines: [engine], detector: FakeDetector.words)
        var http = HTTPServerConfiguration()
        http.maxBodyBytes = maxBody
        http.drainTimeoutSeconds = 5
        var api = base
        api.middleware = middleware
        api.access = access
        return try LiveServer.start(service: service, http: http, api: api)
    }

    func get(_ target: String, headers: [String: String] = [:]) async throws -> RawResponse {
        try #require(await client().request("GET", target, headers: headers))
    }

    func post(_ target: String, _ body: String, contentType: String, headers: [String: String] = [:]) async throws -> RawResponse {
        try #require(await client().request("POST", target, headers: headers.merging(["Content-Type": contentType]) { $1 },
                                            body: Array(body.utf8)))
    }

    /// Any method, with an optional form or JSON body.
    func send(_ method: String, _ target: String, _ body: String = "", contentType: String? = nil,
              headers: [String: String] = [:]) async throws -> RawResponse {
        var all = headers
        if let contentType { all["Content-Type"] = contentType }
        return try #require(await client().request(method, target, headers: all, body: Array(body.utf8)))
    }
}

import Testing
import ServerTestSupport
