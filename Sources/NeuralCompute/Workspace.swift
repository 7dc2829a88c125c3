import Dispatch
/// Reusable scratch buffers of one worker thread.
///
/// Owned by exactly one thread at a time (a replica's worker), never shared: that is why it can
/// be a plain class with unsynchronised mutable storage. Buffers only grow; a buffer returned by
/// one call is valid until the next call for the same kind.
public final class Workspace {
    /// Threads the Swift kernels split their output columns over (OpenBLAS has its own setting).
    public var threads = 1

    /// Empty buffers, one thread.
    public init() {}
    private let int8 = ScratchBuffer<Int8>()
    private let int32 = ScratchBuffer<Int32>()
    private let scales = ScratchBuffer<Float>()

    /// Room for `count` int8 values (quantized activations).
    func int8Buffer(_ count: Int) -> UnsafeMutablePointer<Int8> { int8.reserve(count) }

    /// Room for `count` int32 values (int8 GEMM accumulators).
    func int32Buffer(_ count: Int) -> UnsafeMutablePointer<Int32> { int32.reserve(count) }

    /// Room for `count` per-row quantization scales.
    func scaleBuffer(_ count: Int) -> UnsafeMutablePointer<Float> { scales.reserve(count) }
}

/// Uninitialised scratch memory that only grows; contents are not kept when it grows.
final class ScratchBuffer<Element> {
    private var pointer: UnsafeMutablePointer<Element> = .allocate(capacity: 1)
    private var capacity = 1

    deinit { pointer.deallocate() }

    func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            pointer.deallocate()
            pointer = .allocate(capacity: count)
            capacity = count
        }
        return pointer
    }
}

/// A float matrix buffer [rows, columns] that grows as needed; owned by one worker.
public final class FloatBuffer {
    public private(set) var pointer: UnsafeMutablePointer<Float>
    public private(set) var capacity: Int

    public init(capacity: Int = 1) {
        self.capacity = max(1, capacity)
        pointer = .allocate(capacity: self.capacity)
        pointer.initialize(repeating: 0, count: self.capacity)
    }

    deinit { pointer.deallocate() }

    /// Ensures room for `count` floats; contents are not kept when it grows.
    @discardableResult
    public func reserve(_ count: Int) -> UnsafeMutablePointer<Float> {
        if count > capacity {
            pointer.deallocate()
            capacity = count
            pointer = .allocate(capacity: count)
            pointer.initialize(repeating: 0, count: count)
        }
        return pointer
    }
}

/// Splits a kernel's output columns over threads. `concurrentPerform` runs the blocks on the
/// calling (dedicated worker) thread plus Dispatch's worker threads, never on Swift's
/// cooperative pool; blocks write disjoint columns, so they share nothing mutable.
public enum Parallel {
    /// Block bounds are multiples of `granularity` (a kernel's column tile), except `n` itself.
    public static func columns(_ n: Int, threads: Int, granularity: Int = 4, _ body: (Range<Int>) -> Void) {
        let parts = min(max(1, threads), max(1, n / max(64, granularity)))
        if parts == 1 {
            body(0..<n)
            return
        }
        // Blocks are multiples of 4 columns (or the granularity) so the kernels keep their fast path.
        let block = ((n + parts - 1) / parts + granularity - 1) / granularity * granularity
        withoutActuallyEscaping(body) { body in
            // The blocks write disjoint output columns and only read shared inputs, and
            // concurrentPerform returns after all of them: sharing the closure is safe.
            let shared = UncheckedSendable(value: body)
            DispatchQueue.concurrentPerform(iterations: parts) { p in
                let start = min(n, p * block)
                shared.value(start..<min(n, start + block))
            }
        }
    }
}

extension Parallel {
    /// Splits `n` independent items (rows, sentences) into at most `threads` contiguous ranges of
    /// at least `minimumPerPart` items (below that, a thread's start costs more than it saves),
    /// run as `columns` runs its blocks. The body must write only what belongs to its items:
    /// each item's result is then the same as on one thread.
    public static func items(_ n: Int, threads: Int, minimumPerPart: Int = 1, _ body: (Range<Int>) -> Void) {
        let parts = min(max(1, threads), n / max(1, minimumPerPart))
        if parts <= 1 {
            body(0..<n)
            return
        }
        let block = (n + parts - 1) / parts
        withoutActuallyEscaping(body) { body in
            // Disjoint item ranges, and concurrentPerform returns after all of them.
            let shared = UncheckedSendable(value: body)
            DispatchQueue.concurrentPerform(iterations: parts) { p in
                let start = min(n, p * block)
                shared.value(start..<min(n, start + block))
            }
        }
    }
}

/// Wraps a value whose cross-thread use is proven safe at the use site (see there).
public struct UncheckedSendable<T>: @unchecked Sendable {
    public let value: T

    /// Wraps `value`.
    public init(value: T) { self.value = value }
}
