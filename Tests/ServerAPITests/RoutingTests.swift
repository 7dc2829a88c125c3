import HTTPServer
import Testing
@testable import ServerAPI

/// The route table on plain values: patterns, methods, and two dialects sharing a path.
@Suite struct RoutingTests {
    private func endpoint(_ name: String, _ methods: [String], _ path: String,
                          claims: (@Sendable (DecodedRequest) -> Bool)? = nil) -> Endpoint {
        Endpoint(name, methods, path, claims: claims, docs: EndpointDocs(summary: name, success: "")) { _ in
            EndpointResult(response: HTTPResponse(status: 200))
        }
    }

    private func dialect(_ name: String, _ endpoints: [Endpoint]) -> Dialect {
        Dialect(name: name, title: name, version: "1", summary: name, endpoints: endpoints,
                errors: ErrorEnvelope(render: { _, _ in HTTPResponse(status: 500) }, documentation: []), credentials: .none)
    }

    private func name(_ match: RouteTable.Match) -> String {
        switch match {
        case .found(let route, let parameters):
            return route.endpoint.name + parameters.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        case .methodNotAllowed(let route, let allowed, _): return "405 \(route.endpoint.name) \(allowed.joined(separator: ","))"
        case .notFound: return "404"
        }
    }

    @Test func patternsMatchWholeSegmentsAndDecodeParameters() {
        let pattern = PathPattern("/download_file/{filename}")
        #expect(pattern.match("/download_file/a%20b.txt") == ["filename": "a b.txt"])
        #expect(pattern.match("/download_file/a+b") == ["filename": "a+b"])
        #expect(pattern.match("/download_file") == nil)
        #expect(pattern.match("/download_file/a/b") == nil)
        #expect(pattern.match("/download_file/%FF") == nil)
        #expect(!pattern.isLiteral && PathPattern("/v2/translate").isLiteral)
    }

    /// Google v3's custom methods: a parameter, then a literal ending in the same segment.
    @Test func aParameterMayEndWithALiteral() {
        let pattern = PathPattern("/v3/projects/{project}:translateText")
        #expect(pattern.match("/v3/projects/my-project:translateText") == ["project": "my-project"])
        #expect(pattern.match("/v3/projects/p%3Ax:translateText") == ["project": "p:x"])
        #expect(pattern.match("/v3/projects/:translateText") == nil)
        #expect(pattern.match("/v3/projects/p:detectLanguage") == nil)
        #expect(pattern.match("/v3/projects/p") == nil)
        #expect(PathPattern("/v3/projects/{project}/supportedLanguages").match("/v3/projects/p/supportedLanguages") == ["project": "p"])
    }

    @Test func sharedPathsAreToldApartByWhatTheRequestCarries() {
        let table = RouteTable(dialects: [
            dialect("apy", [endpoint("apy", ["GET", "POST"], "/translate", claims: { RequestPeek.hasFormParameter($0, "langpair") })]),
            dialect("lt", [endpoint("lt", ["POST"], "/translate"), endpoint("file", ["GET"], "/download_file/{filename}")]),
        ])
        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(name(table.match(HTTPRequest(method: "POST", path: "/translate", headers: form, body: Array("langpair=en|es&q=a".utf8)))) == "apy")
        #expect(name(table.match(HTTPRequest(method: "POST", path: "/translate", query: "langpair=en|es"))) == "apy")
        #expect(name(table.match(HTTPRequest(method: "POST", path: "/translate", headers: form, body: Array("q=a&source=en".utf8)))) == "lt")
        #expect(name(table.match(HTTPRequest(method: "POST", path: "/translate", headers: ["Content-Type": "application/json"],
                                             body: Array(#"{"langpair": "x"}"#.utf8)))) == "lt")
        #expect(name(table.match(HTTPRequest(method: "GET", path: "/translate/"))) == "apy")
        #expect(name(table.match(HTTPRequest(method: "HEAD", path: "/download_file/x.txt"))) == "file filename=x.txt")
        #expect(name(table.match(HTTPRequest(method: "DELETE", path: "/translate"))) == "405 apy GET,POST")
        #expect(name(table.match(HTTPRequest(method: "OPTIONS", path: "/download_file/y"))) == "405 file GET")
        #expect(name(table.match(HTTPRequest(method: "GET", path: "/translated"))) == "404")
    }
}
