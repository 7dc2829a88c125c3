@testable import AccessControl
import DatabaseTestSupport
import Foundation
import SQLDatabase
import Testing

@Suite("The access controller charging a busy key, on SQLite and PostgreSQL")
struct AccessControllerTests {
    @Test("A burst of requests on one key is charged from allowances; usage answered at once is exact, a failed request is refunded, and nothing stays held after finish",
          arguments: StoreKind.available)
    func busyKeyEndToEnd(_ kind: StoreKind) async throws {
        let database = Database(try await kind.location())
        defer { database.close() }
        let store = KeyStore(database: database)
        var policy = AccessPolicy()
        policy.modes = ["test": .required]
        let access = AccessController(policy: policy, store: store)
        let (_, secret) = try await store.create(name: "busy", charactersPerMonth: 1_000_000, requestsPerMinute: nil)
        let attempt = AccessController.Attempt(dialect: "test", secret: secret, peer: "127.0.0.1", characters: { 10 })
        // 300 requests at once: far over the 50 a second that make a key busy.
        let admissions = try await withThrowingTaskGroup(of: AccessController.Admission.self) { group in
            for _ in 0..<300 { group.addTask { try await access.admit(attempt).get() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(admissions.count == 300)
        #expect(admissions.contains { $0.charge?.fromAllowance == true })
        #expect(try await access.usage(secret: secret)?.characters == 3_000)
        await access.settle(admissions[0], succeeded: false)
        let usage = try #require(try await access.usage(secret: secret))
        #expect(usage.characters == 2_990 && usage.requests == 299)
        await access.finish()
        #expect(try await database.execute("SELECT COUNT(*) FROM glossa_key_holds").first?.integer(0) == 0)
        #expect(try await database.execute("SELECT characters, requests FROM glossa_key_usage").first?.values == [.integer(2_990), .integer(299)])
    }
}
