import Dispatch
import HTTPServer
import ServerAPI
import Synchronization
import TranslationCore
import TranslationService

/// Request decoding, through the router every request takes: query strings, form bodies, JSON
/// bodies (and the multipart refusal), on each protocol's endpoints, against a service whose
/// engine echoes. Input: byte 0 picks the method, byte 1 the content type, byte 2 the endpoint;
/// the rest is the query, a NUL, then the body. Invariant: every request gets an answer with a
/// status a client can read (no 5xx but 503 for shutdown, which never happens here).
enum RequestTarget {
    static let methods = ["GET", "POST", "HEAD", "OPTIONS", "PUT"]
    static let contentTypes = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                               "", "text/plain", "application/json; charset=utf-8"]
    static let paths = ["/language/translate/v2", "/language/translate/v2/detect", "/language/translate/v2/languages",
                        "/translate", "/listPairs", "/identifyLang", "/ajax/services/language/translate",
                        "/ajax/services/language/detect", "/glossa/v1/translate/stream", "/glossa/v1/pairs", "/health", "/nowhere"]

    static func run(_ data: [UInt8]) {
        guard data.count >= 3 else { return }
        let rest = data[3...]
        let split = rest.firstIndex(of: 0) ?? rest.endIndex
        var headers = HTTPHeaders()
        let contentType = contentTypes[Int(data[1]) % contentTypes.count]
        if !contentType.isEmpty { headers.add("Content-Type", contentType) }
        let request = HTTPRequest(
            method: methods[Int(data[0]) % methods.count], path: paths[Int(data[2]) % paths.count],
            query: String(decoding: rest[..<split], as: UTF8.self), headers: headers,
            body: split < rest.endIndex ? Array(rest[rest.index(after: split)...]) : [])
        let response = answer(request)
        precondition((100...599).contains(response.status), "status \(response.status)")
        precondition(response.status < 500 || response.status == 503, "status \(response.status) for a request a client sent")
    }

    /// Runs the router to completion (the fuzzer's thread is not one of Swift's pool threads, so
    /// it may wait). A streamed answer is read to its end.
    private static func answer(_ request: HTTPRequest) -> HTTPResponse {
        let router = shared
        let box = Mutex<HTTPResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let response = await router.handle(request)
            if case .stream(let stream) = response.body { for await _ in stream {} }
            box.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
    }

    /// One router for every input: built once, over an echo engine serving en↔es and en→fr.
    private static let shared: GlossaRouter = {
        let box = Mutex<GlossaRouter?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let pairs = ["en-es", "es-en", "en-fr"].map { try! LanguagePair(parsing: $0) }
            let service = await TranslationService(engines: [EchoEngine(served: pairs)], detector: FirstWordDetector())
            box.withLock { $0 = makeGlossaRouter(service: service) }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
    }()
}

/// Answers every text with itself upper-cased.
private struct EchoEngine: TranslationEngine {
    let served: [LanguagePair]
    var name: String { "echo" }
    func pairs() async -> [LanguagePair] { served }
    func translate(_ texts: [String], pair: LanguagePair, options: TranslationOptions) async throws -> [String] {
        texts.map { $0.uppercased() }
    }
    func shutdown() async {}
}

/// Says English for text starting with a letter, nothing otherwise.
private struct FirstWordDetector: LanguageDetector {
    func detect(_ texts: [String], hint: LanguageCode?) async -> [Detection] {
        texts.map { $0.first?.isLetter == true ? Detection(language: try! LanguageCode(parsing: "en"), confidence: 0.9, isReliable: true) : .unknown }
    }
}
