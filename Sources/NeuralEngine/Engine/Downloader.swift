import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TranslationCore

/// Downloads a file with URLSession, reporting progress (0…1 when the size is known).
///
/// A data task, not a download task: its delegate sees the response's status before any byte of
/// the body, so an error page is refused before it is downloaded or shown as progress
/// (swift-corelibs-foundation's download tasks give no response until the body is complete).
enum Downloader {
    /// Downloads `url` into a temporary file and returns its location.
    /// - Throws: ``TranslationError`` `.engineFailure` naming the URL: an HTTP status other than
    ///   2xx, a network failure, or a local file that cannot be written.
    static func download(_ url: URL, progress: @escaping @Sendable (Double) -> Void) async throws -> URL {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-download-\(UUID().uuidString).argosmodel")
        let delegate = DownloadDelegate(url: url, target: target, progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                delegate.continuation = continuation
                session.dataTask(with: url).resume()
            }
        } catch {
            try? FileManager.default.removeItem(at: target)
            throw error
        }
    }
}

/// URLSession delegate: checks the status, writes the body to `target` as it arrives, reports
/// progress, and resumes the continuation once.
private final class DownloadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `continuation` is set before the task starts; everything else is touched only
    // on the session's serial delegate queue.
    let url: URL
    let target: URL
    let progress: @Sendable (Double) -> Void
    var continuation: CheckedContinuation<URL, Error>?
    private var file: FileHandle?
    private var expected: Int64 = -1
    private var written: Int64 = 0

    init(url: URL, target: URL, progress: @escaping @Sendable (Double) -> Void) {
        self.url = url
        self.target = target
        self.progress = progress
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        guard (200..<300).contains(status) else {
            fail("Download of \(url.absoluteString) failed: HTTP \(status).")
            completionHandler(.cancel)
            return
        }
        guard FileManager.default.createFile(atPath: target.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: target.path) else {
            fail("Cannot write the download of \(url.absoluteString) to \(target.path).")
            completionHandler(.cancel)
            return
        }
        file = handle
        expected = response.expectedContentLength
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let file, continuation != nil else { return }
        do {
            try file.write(contentsOf: data)
        } catch {
            fail("Cannot write the download of \(url.absoluteString) to \(target.path): \(error.localizedDescription)")
            dataTask.cancel()
            return
        }
        written += Int64(data.count)
        if expected > 0 { progress(min(1, Double(written) / Double(expected))) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        try? file?.close()
        file = nil
        if let error {
            fail("Download of \(url.absoluteString) failed: \(error.localizedDescription)")
            return
        }
        guard let c = continuation else { return }
        continuation = nil
        progress(1)
        c.resume(returning: target)
    }

    private func fail(_ message: String) {
        guard let c = continuation else { return }
        continuation = nil
        c.resume(throwing: TranslationError(.engineFailure, message))
    }
}
