import Synchronization

/// `compute`'s result kept in `slot`: the first caller computes it, every later one reads it (a
/// failure too, so every reader gets the same error). Computed outside the lock, as it may parse
/// a whole body: two first callers compute alike, and whichever stores first is kept.
func computedOnce<T: Sendable, E: Error>(_ slot: borrowing Mutex<Result<T, E>?>,
                                         _ compute: () throws(E) -> T) throws(E) -> T {
    if let known = slot.withLock({ $0 }) { return try known.get() }
    let result: Result<T, E>
    do { result = .success(try compute()) } catch { result = .failure(error) }
    return try slot.withLock { value in
        if value == nil { value = result }
        return value!
    }.get()
}
