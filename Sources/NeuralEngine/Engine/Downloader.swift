import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TranslationCore

/// Downloads a file with URLSession, reporting progress (0…1 when the size is known).
enum Downloader {
    /// Downloads `url` into a temporary file and returns its location.
    static func download(_ url: URL, progress: @escaping @Sendable (Double) -> Void) async throws -> URL {
        let delegate = ProgressDelegate(progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.continuation = continuation
            session.downloadTask(with: url).resume()
        }
    }
}

/// URLSession delegate: progress, then the finished file moved somewhere that outlives the callback.
private final class ProgressDelegate: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    // @unchecked: `continuation` is set before the task starts, then touched only on the
    // session's serial delegate queue.
    let progress: @Sendable (Double) -> Void
    var continuation: CheckedContinuation<URL, Error>?

    init(progress: @escaping @Sendable (Double) -> Void) { self.progress = progress }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        if totalBytesExpectedToWrite > 0 { progress(Double(totalBytesWritten) / Double(totalBytesExpectedToWrite)) }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let status = (downloadTask.response as? HTTPURLResponse)?.statusCode ?? 200
        guard (200..<300).contains(status) else {
            finish(.failure(TranslationError(.engineFailure, "Download of \(downloadTask.originalRequest?.url?.absoluteString ?? "?") failed: HTTP \(status).")))
            return
        }
        // The file at `location` is deleted when this callback returns: move it first.
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-download-\(UUID().uuidString).argosmodel")
        do {
            try FileManager.default.moveItem(at: location, to: target)
            progress(1)
            finish(.success(target))
        } catch {
            finish(.failure(TranslationError(.engineFailure, "Cannot keep the downloaded file: \(error.localizedDescription)")))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            finish(.failure(TranslationError(.engineFailure, "Download of \(task.originalRequest?.url?.absoluteString ?? "?") failed: \(error.localizedDescription)")))
        }
    }

    private func finish(_ result: Result<URL, Error>) {
        guard let c = continuation else { return }
        continuation = nil
        c.resume(with: result)
    }
}
