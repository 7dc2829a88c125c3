import TranslationCore

/// What a `PipelinePool` needs from a pipeline: the real `ApertiumPipeline`, or a scripted fake
/// in unit tests.
protocol PoolPipeline: Sendable {
    /// Translates `chunks` in order, one output per chunk; calls `progress` after each chunk so
    /// the pool can push the deadline on. Throws ``TranslationError`` `.engineFailure` when the
    /// pipeline broke (a stage died, or the output lost its framing).
    func run(_ chunks: [[UInt8]], progress: @escaping @Sendable () -> Void) async throws -> [[UInt8]]

    /// Stops the pipeline's processes (SIGTERM to the group, then SIGKILL); a pending `run`
    /// then fails. Idempotent; returns at once.
    func terminate()

    /// The processes behind the pipeline, for diagnostics and the kill test.
    var processIDs: [Int32] { get }

    /// Bytes the pipeline's processes hold in memory now (their resident sets), or nil when it
    /// cannot be read. The pool compares it with the first reading to bound slow leaks.
    func residentBytes() -> Int?
}
