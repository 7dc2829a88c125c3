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
        do {
            return try await download(url, into: target, progress: progress)
        } catch {
            try? FileManager.default.removeItem(at: target)
            throw error
        }
    }

    /// Downloads `url` into `target`, going on from where an earlier attempt stopped: when
    /// `target` holds part of the file, only the rest is asked for (`Range`); a server that
    /// answers with the whole file (200) starts it again. On failure the part stays, for the
    /// next attempt.
    static func download(_ url: URL, into target: URL, progress: @escaping @Sendable (Double) -> Void) async throws -> URL {
        let have = ((try? FileManager.default.attributesOfItem(atPath: target.path))?[.size] as? NSNumber)?.int64Value ?? 0
        let delegate = DownloadDelegate(url: url, target: target, resumeFrom: have, progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        if have > 0 { request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range") }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.continuation = continuation
            session.dataTask(with: request).resume()
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
    /// Bytes already in `target` from an earlier attempt.
    let resumeFrom: Int64
    var continuation: CheckedContinuation<URL, Error>?
    private var file: FileHandle?
    private var expected: Int64 = -1
    private var written: Int64 = 0

    init(url: URL, target: URL, resumeFrom: Int64 = 0, progress: @escaping @Sendable (Double) -> Void) {
        self.url = url
        self.target = target
        self.resumeFrom = resumeFrom
        self.progress = progress
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        if status == 416, resumeFrom > 0 {
            // The part asked for is past the end: the earlier attempt had the whole file.
            completionHandler(.cancel)
            finish()
            return
        }
        guard (200..<300).contains(status) else {
            fail("Download of \(url.absoluteString) failed: HTTP \(status).")
            completionHandler(.cancel)
            return
        }
        // 206: the rest of the file goes after the part already here; otherwise the whole file.
        let appending = status == 206 && resumeFrom > 0
        guard appending || FileManager.default.createFile(atPath: target.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: target.path) else {
            fail("Cannot write the download of \(url.absoluteString) to \(target.path).")
            completionHandler(.cancel)
            return
        }
        if appending { _ = try? handle.seekToEnd() }
        file = handle
        written = appending ? resumeFrom : 0
        expected = response.expectedContentLength > 0 ? written + response.expectedContentLength : -1
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
        finish()
    }

    private func finish() {
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
