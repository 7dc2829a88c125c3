import Foundation
import TranslationCore

extension ApertiumEngine {
    /// How the Apertium engine finds pairs and runs pipelines. Every field has a default.
    public struct Configuration: Sendable {
        /// Directories holding `.mode` files, scanned in order (the first one to name a pair
        /// wins). Default: `["/usr/share/apertium/modes"]`, Debian's; the environment variable
        /// `GLOSSA_APERTIUM_MODES` (colon-separated) appends more.
        public var modeDirectories: [URL]
        /// Pipelines each pair keeps warm once its pool has started. Default: 1.
        public var minPipelines: Int
        /// Most pipelines per pair, hence most requests of one pair translated at once. One
        /// pipeline already keeps about two cores busy (its stages are separate processes).
        /// Default: 2.
        public var maxPipelines: Int
        /// Requests a pipeline serves before it is replaced by a fresh one. Default: 1000.
        public var maxUsesBeforeRestart: Int
        /// Longest a pipeline may take to answer one chunk; a pipeline that takes longer is
        /// considered hung, stopped, and its request retried once. Default: 30 seconds.
        public var requestTimeout: Duration
        /// Target size of one chunk of deformatted text in bytes; long input is cut at sentence or
        /// word breaks near this size, and every chunk is translated. Default: 1024. (Each chunk
        /// ends in a NUL that makes every stage flush, so small chunks move through the chain
        /// sooner and keep more stages busy at once; `apertium-bench` measured 1 KB near or above
        /// the raw command's words per second and 8 KB well below it, at the same CPU cost.)
        public var chunkSize: Int
        /// Whether unknown words come back marked with `*` (Apertium's `-g`; false is `-n`).
        /// Default: true.
        public var markUnknownWords: Bool
        /// Pairs whose pipelines start as soon as the engine is made, so that their first
        /// translation is fast; other pairs start on first use. Default: none.
        public var prewarm: [LanguagePair]

        /// A configuration with every default, changed by the arguments given.
        public init(
            modeDirectories: [URL] = [URL(fileURLWithPath: "/usr/share/apertium/modes")],
            minPipelines: Int = 1,
            maxPipelines: Int = 2,
            maxUsesBeforeRestart: Int = 1000,
            requestTimeout: Duration = .seconds(30),
            chunkSize: Int = 1024,
            markUnknownWords: Bool = true,
            prewarm: [LanguagePair] = []
        ) {
            self.modeDirectories = modeDirectories
            self.minPipelines = minPipelines
            self.maxPipelines = maxPipelines
            self.maxUsesBeforeRestart = maxUsesBeforeRestart
            self.requestTimeout = requestTimeout
            self.chunkSize = chunkSize
            self.markUnknownWords = markUnknownWords
            self.prewarm = prewarm
        }
    }
}
