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
        /// Bytes a pipeline's processes may grow past their size after its first request before
        /// it is replaced by a fresh one, once idle; read at most every 10 seconds. Bounds slow
        /// growth (eng-spa's stages keep about 170 bytes per sentence, most of it lrx-proc's:
        /// `bench/pipeline_growth.py`) without restarting pipelines that do not grow: a restart
        /// costs the stages' start-up (a quarter of a CPU second for eng-spa) and stalls the
        /// requests around it. Default: 64 MiB.
        public var maxMemoryGrowth: Int
        /// Longest a pipeline may take to answer one chunk; a pipeline that takes longer is
        /// considered hung, stopped, and its request retried once. Default: 30 seconds.
        public var requestTimeout: Duration
        /// Target size of one chunk of deformatted text in bytes: a text longer than this is cut
        /// at sentence breaks near this size (whole sentences, see ``maxChunkSize``), each chunk
        /// is translated as a request of its own, and the chunks of one call are spread over the
        /// pair's pipelines. Default: 256. (Each chunk ends in a NUL that makes every stage
        /// flush, so while one stage works on a chunk the stage before it takes the next: a
        /// paragraph in one 1 KB chunk goes through the stages one after the other. One
        /// paragraph at a time, whole-sentence chunks of about 256 bytes served 1.2–1.5× the
        /// paragraphs per second of 1 KB chunks, in alternating rounds on a 2-core machine.)
        public var chunkSize: Int
        /// Longest chunk in bytes kept whole to end at a sentence break; only a sentence longer
        /// than this is cut, at a word break. Default: 1024.
        public var maxChunkSize: Int
        /// The program run in place of each `apertium-tagger` stage: `glossa-apertium-tagger`,
        /// which tags exactly as apertium-tagger does but starts every request from the model as
        /// loaded (apertium-tagger rewrites its model's open class while it tags, so a warm
        /// pipeline's answers would depend on earlier requests). Default: `GLOSSA_APERTIUM_TAGGER`,
        /// else `glossa-apertium-tagger` beside the running executable; nil when neither exists,
        /// and then the stock tagger runs (``ApertiumEngine/status()`` says so).
        public var resettingTagger: URL?
        /// Pairs whose pipelines start as soon as the engine is made, so that their first
        /// translation is fast; other pairs start on first use. Default: none.
        public var prewarm: [LanguagePair]
        /// Longest a pair's probe waits for the answer to its test sentence once the pipeline has
        /// loaded; a pair that takes longer is unavailable (it hangs). Default: 10 seconds.
        public var probeTimeout: Duration
        /// The file that keeps probe verdicts between runs; nil keeps none. Default:
        /// ``defaultProbeCache(environment:)``.
        public var probeCache: URL?
        /// Most pools (a pair's translation, with or without marks, or an analysis mode) kept
        /// warm besides the pairs given to ``ApertiumEngine/prewarm(_:)``; past it, the least
        /// recently used one closes (its pipelines stop once idle and start again on its next
        /// request). nil keeps every pool that was ever used warm. Default: 8. (A pair's
        /// pipeline holds 30–250 MB, `bench/pipeline_memory.py`; with all of Debian's pairs warm, 21 GB.)
        public var maxWarmPools: Int?
        /// An unpinned pool unused this long closes; nil keeps it. Default: 10 minutes.
        public var idleTimeout: Duration?

        /// A configuration with every default, changed by the arguments given.
        public init(
            modeDirectories: [URL] = [URL(fileURLWithPath: "/usr/share/apertium/modes")],
            minPipelines: Int = 1,
            maxPipelines: Int = 2,
            maxMemoryGrowth: Int = 64 << 20,
            requestTimeout: Duration = .seconds(30),
            chunkSize: Int = 256,
            maxChunkSize: Int = 1024,
            resettingTagger: URL? = ResettingTagger.defaultLocation(),
            prewarm: [LanguagePair] = [],
            probeTimeout: Duration = .seconds(10),
            probeCache: URL? = defaultProbeCache(environment: ProcessInfo.processInfo.environment),
            maxWarmPools: Int? = 8,
            idleTimeout: Duration? = .seconds(600)
        ) {
            self.modeDirectories = modeDirectories
            self.minPipelines = minPipelines
            self.maxPipelines = maxPipelines
            self.maxMemoryGrowth = maxMemoryGrowth
            self.requestTimeout = requestTimeout
            self.chunkSize = chunkSize
            self.maxChunkSize = maxChunkSize
            self.resettingTagger = resettingTagger
            self.prewarm = prewarm
            self.probeTimeout = probeTimeout
            self.probeCache = probeCache
            self.maxWarmPools = maxWarmPools
            self.idleTimeout = idleTimeout
        }

        /// `GLOSSA_PROBE_CACHE` (a file path; `off` keeps no cache), else
        /// `$XDG_CACHE_HOME/glossa/apertium-probes.json`, else `~/.cache/glossa/apertium-probes.json`.
        public static func defaultProbeCache(environment: [String: String]) -> URL? {
            ProbeCache.defaultFile(environment: environment)
        }
    }
}
