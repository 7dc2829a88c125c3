import TranslationCore

/// Keeping memory bounded: which pools stay warm (``WarmSet``) and closing the others.
extension ApertiumEngine {
    /// A pool, as the warm set knows it.
    enum PoolIdentity: Hashable {
        /// A pair's translation pool (with or without unknown-word marks).
        case translation(PoolKey)
        /// An analysis mode's pool (`eng-morph`), by mode name.
        case analysis(String)
    }

    /// Records a use of `identity`'s pool: the least recently used pools past
    /// ``Configuration/maxWarmPools`` close, and the idle sweeper runs from the first use on.
    func noteUse(_ identity: PoolIdentity) {
        let evicted = warmSet.use(identity, at: .now)
        for key in evicted {
            // Closing waits for any request still running there; none is failed.
            if let pool = existingPool(key) { Task { await pool.close() } }
        }
        startIdleSweeper()
    }

    /// Closes the unpinned pools that nothing has used for ``Configuration/idleTimeout``.
    func closeIdlePools() async {
        guard let idle = configuration.idleTimeout else { return }
        for key in warmSet.unused(since: .now.advanced(by: .zero - idle)) {
            guard let pool = existingPool(key) else {
                warmSet.forget(key)
                continue
            }
            // The pool knows whether a request is running or ended later than its last start.
            if await pool.closeIfIdle(for: idle) { warmSet.forget(key) }
        }
    }

    private func startIdleSweeper() {
        guard idleSweeper == nil, !isShutDown, let idle = configuration.idleTimeout else { return }
        // Looks a few times per timeout, so a pool closes at most a quarter late; never more
        // often than once a second nor less than once a minute.
        let interval = min(max(idle / 4, .seconds(1)), .seconds(60))
        idleSweeper = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let engine = self, !Task.isCancelled else { return }
                await engine.closeIdlePools()
            }
        }
    }
}
