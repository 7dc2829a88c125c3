import AccessControl
import SQLDatabase

/// The glossary store as every protocol reaches it: whose glossaries a request sees, and the
/// store's failures in the protocol's terms.
struct GlossaryAccess: Sendable {
    let store: GlossaryStore?
    /// Keys: where they are checked, each key sees only its own glossaries.
    let access: AccessController?

    /// Whose glossaries `request` sees: its key's where keys are checked, else everyone's.
    func owner(_ request: RoutedRequest) -> String {
        access?.store != nil ? GlossaryStore.owner(forKey: request.credential?.key) : ""
    }

    /// Runs `body` on the store; a database that cannot be reached is a 503 to retry.
    func run<T>(_ body: (GlossaryStore) async throws -> T) async throws -> T {
        guard let store else { throw APIError.unavailable(message: "Glossaries are not available: this server was started without a database.") }
        do { return try await body(store) } catch let error as DatabaseError {
            throw APIError.unavailable(retryAfter: 1, message: "The glossary store is unavailable (\(error)); retry shortly.")
        }
    }
}
