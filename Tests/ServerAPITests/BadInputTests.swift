import Foundation
import HTTPTestSupport
import Testing

/// Malformed requests on every dialect's own paths: each gets a 4xx in that dialect's envelope
/// (never another's, never a crash or a hang), and the server still answers afterwards.
@Suite("Bad input is answered in each dialect's own envelope")
struct BadInputTests {
    /// The envelope each dialect's errors must have.
    enum Envelope: String {
        case google, libreTranslate, deepL, apy, ajax

        func holds(_ r: RawResponse) -> Bool {
            let json = r.json as? [String: Any]
            switch self {
            case .google:
                let error = json?["error"] as? [String: Any]
                return (400..<500).contains(r.status) && error?["code"] as? Int == r.status && error?["message"] is String
            case .libreTranslate:
                return (400..<500).contains(r.status) && json?.count == 1 && json?["error"] is String && r.text.hasSuffix("}\n")
            case .deepL:
                return (400..<500).contains(r.status) && json?.count == 1 && json?["message"] is String
            case .apy:
                return (400..<500).contains(r.status) && json?["status"] as? String == "error" && json?["code"] as? Int == r.status
            case .ajax:
                return r.status == 200 && (json?["responseStatus"] as? Int).map { (400..<500).contains($0) } == true
            }
        }
    }

    static let bodies: [(String, [UInt8])] = [
        ("application/json", Array(#"{"q": ["a", "#.utf8)),
        ("application/json", Array("[1, 2, 3]".utf8)),
        ("application/json", Array(#"{"q": {"nested": [1, {"x": null}]}, "text": [[["deep"]]], "target": 7}"#.utf8)),
        ("application/json", [0xFF, 0xFE, 0x7B, 0x7D]),
        ("application/x-www-form-urlencoded", Array("q=%E0%A4&text=%FF&source=en&target=es&target_lang=ES&langpair=en%7C".utf8)),
        ("application/x-www-form-urlencoded", Array("&&=&=x&%ZZ=%".utf8)),
        ("multipart/form-data; boundary=x", Array("--x\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\nhi\r\n--x--".utf8)),
        ("text/plain", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }),
        ("application/json", Array(String(repeating: "[", count: 3000).utf8)),
    ]

    static let endpoints: [(String, String, Envelope)] = [
        ("POST", "/language/translate/v2?prettyPrint=false", .google),
        ("POST", "/language/translate/v2/detect?prettyPrint=false", .google),
        ("POST", "/translate", .libreTranslate),
        ("POST", "/detect", .libreTranslate),
        ("POST", "/v2/translate", .deepL),
        ("POST", "/v2/languages?type=nonsense", .deepL),
        ("POST", "/translate?langpair=", .apy),
        ("POST", "/identifyLang", .apy),
        ("POST", "/ajax/services/language/translate", .ajax),
    ]

    @Test("Every malformed body on every dialect's translate and detect paths", arguments: endpoints.indices)
    func malformed(_ index: Int) async throws {
        let (method, path, envelope) = Self.endpoints[index]
        let live = try await LiveServer.start(maxBody: 2048)
        for (type, body) in Self.bodies {
            let r = try #require(await live.client().request(method, path, headers: ["Content-Type": type], body: body))
            #expect(envelope.holds(r), "\(method) \(path) [\(type)] \(body.prefix(24)) → \(r.status) \(r.text.prefix(200))")
        }
        // Oversize bodies too, refused in the same envelope.
        let big = try #require(await live.client().request(method, path, headers: ["Content-Type": "application/json"],
                                                           body: Array(repeating: UInt8(ascii: "a"), count: 5000)))
        let status = envelope == .ajax ? (big.json as? [String: Any])?["responseStatus"] as? Int : big.status
        #expect(envelope.holds(big) && status == 413, "\(path) oversize → \(big.status) \(big.text.prefix(120))")
        #expect(try await live.get("/health").status == 200)
        await live.stop()
    }
}
