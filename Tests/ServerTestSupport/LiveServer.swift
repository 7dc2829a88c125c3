import HTTPServer
import HTTPTestSupport
import ServerAPI
import Synchronization
import TranslationService

/// A real Glossa server on 127.0.0.1 and a free port, over a service a test built (usually on
/// TranslationTesting's fake engine): the one way protocol and SDK tests start a server.
public struct LiveServer: Sendable {
    /// The HTTP server, bound and answering.
    public let server: HTTPServer
    /// The Glossa server over the service.
    public let glossa: GlossaServer

    /// Starts a server over `service` with `http` and `api` settings (each default as the product's).
    public static func start(service: TranslationService, http: HTTPServerConfiguration = HTTPServerConfiguration(),
                             api: ServerAPIConfiguration = ServerAPIConfiguration()) throws -> LiveServer {
        let glossa = GlossaServer(service: service, http: http, api: api)
        // Why 127.0.0.1 and port 0: tests never listen beyond this machine, and run side by side.
        return LiveServer(server: try glossa.start(host: "127.0.0.1", port: 0), glossa: glossa)
    }

    /// The port the server listens on.
    public var port: Int { server.port }
    /// The server's base URL, `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(server.port)" }

    /// A raw HTTP/1.1 client connected to the server.
    public func client() throws -> RawHTTPClient { try RawHTTPClient(port: server.port) }

    /// Stops the server (draining as the product does).
    public func stop() async { await server.shutdown() }

    /// Keeps the server running until the test process ends, for a test that hands its address
    /// to sessions and availability checks that may outlive the test. An HTTP server on an
    /// ephemeral loopback port costs two idle threads.
    @discardableResult
    public func keptForTheProcess() -> LiveServer {
        Self.kept.withLock { $0.append(server) }
        return self
    }

    private static let kept = Mutex<[HTTPServer]>([])
}
