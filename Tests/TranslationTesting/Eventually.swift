/// The first non-nil value of `probe` within `limit`, looked for every 50 ms; nil when none came.
public func firstValue<T>(within limit: Duration = .seconds(60), _ probe: () async -> T?) async throws -> T? {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if let value = await probe() { return value }
        try await Task.sleep(for: .milliseconds(50))
    }
    return nil
}

/// Whether `condition` holds within `limit`.
public func eventually(within limit: Duration = .seconds(15), _ condition: () async -> Bool) async throws -> Bool {
    try await firstValue(within: limit) { await condition() ? true : nil } ?? false
}
