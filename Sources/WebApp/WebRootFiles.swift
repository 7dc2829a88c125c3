import Foundation

/// The files of `WebRoot/`, embedded by the EmbedWebRoot build plugin (see `WebRootFiles.all` in
/// the generated `EmbeddedWebRoot.swift`). Internal: ``WebAssets`` is the public face.
enum WebRootFiles {
    /// One embedded file as the generator writes it.
    struct Entry: Sendable {
        /// The path relative to `WebRoot/`, with `/` separators (`js/api.js`).
        let path: String
        /// A hash of the content, stable across builds of the same file.
        let etag: String
        /// The bytes, base64-encoded (decoded once, on first use).
        let base64: String
    }
}
