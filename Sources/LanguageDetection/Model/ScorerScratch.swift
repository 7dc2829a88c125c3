#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scratch arrays of ``WordScorer``, kept per thread between detections.
///
/// Why: a detection of one word costs a few microseconds, and allocating and freeing the
/// scorer's eight arrays each time was a tenth of it. A scorer takes the arrays out of its
/// thread's scratch (``take()``) and gives them back when it is done (``give(_:)``): while a
/// scorer holds them the scratch is empty, so a second scorer on the same thread (a nested or
/// interleaved use) simply gets new arrays, and no two scorers ever share one. Each thread
/// has its own scratch, so nothing here is shared across threads.
final class ScorerScratch {
    /// The arrays, as a value a scorer owns while it works.
    struct Arrays {
        var candidates: [Int32] = []
        var isCandidate: [Bool] = []
        var scores: [Float] = []
        var position: [Float] = []
        var characterLogP: [Float] = []
        var framed: [Unicode.Scalar] = []
        var rows: [Int32] = []
        var keys: [UInt64] = []
    }

    /// The arrays kept for the next scorer on this thread (empty while a scorer holds them).
    private var kept = Arrays()

    /// This thread's arrays (empty ones when a scorer on this thread holds them already).
    static func take() -> Arrays {
        var arrays = Arrays()
        swap(&arrays, &current.kept)
        return arrays
    }

    /// Gives arrays back to this thread's scratch for the next scorer.
    static func give(_ arrays: consuming Arrays) {
        current.kept = arrays
    }

    /// The calling thread's scratch, made on its first use and released when the thread ends.
    private static var current: ScorerScratch {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<ScorerScratch>.fromOpaque(pointer).takeUnretainedValue()
        }
        let scratch = ScorerScratch()
        pthread_setspecific(threadKey, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<ScorerScratch>.fromOpaque(pointer).release()
        }
        // Creating a key fails only when the process has used up PTHREAD_KEYS_MAX (1024) of them.
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
