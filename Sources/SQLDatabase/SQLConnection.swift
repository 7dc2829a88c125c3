/// One open connection, used by one thread at a time (``ConnectionThreads`` confines each to its
/// own thread), so implementations keep no locks.
protocol SQLConnection: AnyObject {
    /// Runs one statement with `$1`, `$2`, … bound to `parameters`; the rows it returns.
    /// - Throws: ``DatabaseError``; `.unavailable` also means this connection must be reopened.
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLRow]

    /// Whether the connection still works after an error (false: reopen it).
    var isUsable: Bool { get }

    /// Closes it; called once, on its thread.
    func close()
}
