import Synchronization

/// Combines the charges to one key that arrive while a charge to that key is running into one
/// statement, as a database's group commit combines transactions.
///
/// Why: every charge to a key updates the same row, and the database serialises those updates
/// until each commits (a WAL flush on PostgreSQL). Sixteen clients on one key then wait in line
/// for sixteen commits. Combined, the charges queued behind a running one cost one statement and
/// one commit between them.
///
/// Invariant, the same as ``KeyStore/charge(_:characters:period:)``'s: a key's total never passes
/// its limit, and a charge is refused only when it would pass the limit by itself at its turn.
/// A combined statement adds the sum only when the whole sum fits (checked in the same row
/// update); when it does not, its charges are retried one by one in arrival order, so each one
/// that fits alone is still accepted and each one refused really did not fit.
final class ChargeCombiner<Key: Hashable & Sendable>: Sendable {
    /// Adds `characters` and `requests` to `key`'s row unless the new total would pass the limit:
    /// the total after, or nil when it would (nothing added).
    typealias Add = @Sendable (_ key: Key, _ characters: Int, _ requests: Int) async throws -> Int?
    /// The key's total now (for a refused charge's answer).
    typealias Read = @Sendable (_ key: Key) async throws -> Int

    private struct Waiter {
        let characters: Int
        let continuation: CheckedContinuation<Turn, Never>
    }

    /// What a waiting charge is woken with.
    private enum Turn {
        /// Another charge's statement decided this one.
        case decided(Result<KeyStore.Charge, any Error>)
        /// Run these (this charge first, then the ones queued behind it) as the next statement.
        case lead([Waiter])
    }

    private let add: Add
    private let read: Read
    /// Per key with a statement running: the charges waiting for the next one. A key is present
    /// exactly while a statement for it runs (or is being handed to its next leader).
    private let queues = Mutex<[Key: [Waiter]]>([:])

    init(add: @escaping Add, read: @escaping Read) {
        self.add = add
        self.read = read
    }

    /// Charges `characters` to `key`, combined with whatever other charges to `key` queue meanwhile.
    func charge(_ key: Key, characters: Int) async throws -> KeyStore.Charge {
        let runsNow = queues.withLock { queues in
            if queues[key] != nil { return false }
            queues[key] = []
            return true
        }
        if runsNow { return try await lead(key, characters, followers: []) }
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let queued = queues.withLock { queues in
                // The running statement may have finished and handed over since the check above.
                guard queues[key] != nil else { queues[key] = []; return false }
                queues[key]!.append(Waiter(characters: characters, continuation: continuation))
                return true
            }
            if !queued { continuation.resume(returning: .lead([])) }
        }
        switch turn {
        case .decided(let result): return try result.get()
        case .lead(let followers): return try await lead(key, characters, followers: followers)
        }
    }

    /// Runs this charge and `followers` as the next statement, answers the followers, and hands
    /// the key on to whoever queued meanwhile.
    private func lead(_ key: Key, _ characters: Int, followers: [Waiter]) async throws -> KeyStore.Charge {
        let results = await decide(key, characters: [characters] + followers.map(\.characters))
        for (waiter, result) in zip(followers, results.dropFirst()) {
            waiter.continuation.resume(returning: .decided(result))
        }
        await handOver(key)
        return try results[0].get()
    }

    /// After a statement: the charges that queued meanwhile go to the first of them, which runs
    /// them as the next statement; with none queued the key is free again.
    private func handOver(_ key: Key) async {
        let next = queues.withLock { queues -> [Waiter] in
            let waiting = queues[key] ?? []
            if waiting.isEmpty { queues[key] = nil } else { queues[key] = [] }
            return waiting
        }
        guard let leader = next.first else { return }
        leader.continuation.resume(returning: .lead(Array(next.dropFirst())))
    }

    /// One outcome per charge, in order: one statement for them all when their sum fits,
    /// else one statement each.
    private func decide(_ key: Key, characters: [Int]) async -> [Result<KeyStore.Charge, any Error>] {
        let sum = characters.reduce(0, +)
        do {
            if let total = try await add(key, sum, characters.count) {
                // Each charge's total is the one it would have seen had they run in order.
                var before = total - sum
                return characters.map { amount in
                    before += amount
                    return .success(.accepted(total: before))
                }
            }
            guard characters.count > 1 else { return [.success(.exceeded(used: try await read(key)))] }
        } catch {
            return characters.map { _ in .failure(error) }
        }
        var results: [Result<KeyStore.Charge, any Error>] = []
        for amount in characters {
            do {
                if let total = try await add(key, amount, 1) {
                    results.append(.success(.accepted(total: total)))
                } else {
                    results.append(.success(.exceeded(used: try await read(key))))
                }
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}
