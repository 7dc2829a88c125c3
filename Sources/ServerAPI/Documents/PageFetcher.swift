import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches web pages for APy's `/translatePage`, only from hosts the operator allowed.
///
/// Why an allow list: a server that fetches any URL it is given is a way into the network it
/// runs in (cloud metadata endpoints, admin pages on localhost, intranet hosts). So fetching is
/// off unless `glossa serve --allow-fetch HOST…` names the hosts, and a redirect is followed
/// only to an allowed host too.
struct PageFetcher: Sendable {
    /// Host names (or `*` for any) pages may be fetched from; empty: fetching is off.
    let allowedHosts: Set<String>
    /// Largest page read, in bytes. Default: 8 MiB.
    var maxBytes = 8 << 20
    /// Longest a fetch may take. Default: 20 seconds (APy's).
    var timeout: TimeInterval = 20

    /// Why a fetch was not done or failed.
    enum Failure: Error, Equatable {
        /// The host is not allowed (or fetching is off).
        case notAllowed(host: String)
        /// The URL, the connection or the answer failed.
        case failed(String)
    }

    /// Whether `host` may be fetched from.
    func allows(_ host: String) -> Bool {
        allowedHosts.contains("*") || allowedHosts.contains(host.lowercased())
    }

    /// The page at `url`: its bytes and its final URL (after redirects).
    func fetch(_ url: URL) async throws(Failure) -> (bytes: [UInt8], url: URL) {
        guard let host = url.host, ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw .failed("unsupported URL \(url.absoluteString)")
        }
        guard allows(host) else { throw .notAllowed(host: host) }
        let guardRedirects = RedirectGuard(fetcher: self)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration, delegate: guardRedirects, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(from: url) } catch {
            if let blocked = guardRedirects.blockedHost { throw .notAllowed(host: blocked) }
            throw .failed(error.localizedDescription)
        }
        if let blocked = guardRedirects.blockedHost { throw .notAllowed(host: blocked) }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw .failed("HTTP \(http.statusCode)")
        }
        guard data.count <= maxBytes else { throw .failed("the page is over \(maxBytes) bytes") }
        return ([UInt8](data), response.url ?? url)
    }
}

/// Refuses redirects to hosts that are not allowed, and remembers which one it refused.
private final class RedirectGuard: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // Written on the session's delegate queue, read after the task completes (happens-before
    // through the task's completion): the lock is for the checker.
    private let lock = NSLock()
    private var blocked: String?
    let fetcher: PageFetcher

    init(fetcher: PageFetcher) { self.fetcher = fetcher }

    var blockedHost: String? { lock.withLock { blocked } }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let host = request.url?.host, fetcher.allows(host) else {
            lock.withLock { blocked = request.url?.host ?? "?" }
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }
}
