@testable import AccessControl
import Foundation
import SQLDatabase
import DatabaseTestSupport
import Testing

@Suite("The key store on SQLite and on PostgreSQL: the same tests on both")
struct KeyStoreTests {
    @Test("Keys are created, found by key, id or name, listed and revoked; only the hash is stored",
          arguments: StoreKind.available)
    func lifecycle(_ kind: StoreKind) async throws {
        let database = Database(try await kind.location())
        defer { database.close() }
        let store = KeyStore(database: database)
        let (alice, secret) = try await store.create(name: "alice", charactersPerMonth: 1000, requestsPerMinute: 60)
        let (bob, _) = try await store.create(name: "bob", charactersPerMonth: nil, requestsPerMinute: nil)
        #expect(alice.hint == KeySecret.hint(secret) && alice.isActive && alice.charactersPerMonth == 1000)
        #expect(try await store.find(secret: secret) == alice)
        #expect(try await store.find(reference: alice.id) == [alice])
        #expect(try await store.find(reference: "bob") == [bob])
        #expect(try await store.find(reference: secret) == [alice])
        #expect(try await store.find(secret: KeySecret.generate()) == nil)
        #expect(try await store.list().map(\.id).sorted() == [alice.id, bob.id].sorted())
        // Nothing in the database holds the key itself.
        let dump = try await database.execute("SELECT id, name, secret_sha256, hint FROM glossa_keys").flatMap(\.values)
        #expect(!dump.contains { $0.description.contains(secret) })
        #expect(dump.contains(.text(KeySecret.hash(secret))))
        let revoked = try #require(try await store.revoke(id: alice.id))
        #expect(!revoked.isActive)
        #expect(try await store.find(secret: secret)?.isActive == false)
        #expect(try await store.revoke(id: "k_none") == nil)
    }

    @Test("Charges add up to the limit and never past it; a refund gives a failed request back",
          arguments: StoreKind.available)
    func charges(_ kind: StoreKind) async throws {
        let database = Database(try await kind.location())
        defer { database.close() }
        let store = KeyStore(database: database)
        let (key, _) = try await store.create(name: "k", charactersPerMonth: 100, requestsPerMinute: nil)
        let period = BillingPeriod.containing(Date())
        #expect(try await store.charge(key, characters: 60, period: period) == .accepted(total: 60))
        #expect(try await store.charge(key, characters: 41, period: period) == .exceeded(used: 60))
        #expect(try await store.charge(key, characters: 40, period: period) == .accepted(total: 100))
        #expect(try await store.charge(key, characters: 1, period: period) == .exceeded(used: 100))
        try await store.refund(key, characters: 40, period: period)
        #expect(try await store.usage(of: key, period: period) == KeyUsage(key: key, period: period, characters: 60, requests: 1))
        // Another month starts from zero; a request larger than the whole limit is refused outright.
        let next = BillingPeriod.containing(period.end)
        #expect(try await store.charge(key, characters: 101, period: next) == .exceeded(used: 0))
        #expect(try await store.charge(key, characters: 100, period: next) == .accepted(total: 100))
        let all = try await store.usage(period: period)
        #expect(all.map(\.characters) == [60])
    }

    @Test("64 concurrent clients racing one key: exactly the quota is accepted, never more",
          arguments: StoreKind.available)
    func race(_ kind: StoreKind) async throws {
        let location = try await kind.location()
        let setup = Database(location)
        let (key, _) = try await KeyStore(database: setup).create(name: "race", charactersPerMonth: 1000, requestsPerMinute: nil)
        setup.close()
        // Four processes' worth of stores on the same database, each with its own connections.
        let stores = (0..<4).map { _ in KeyStore(database: Database(location, connections: 4)) }
        defer { stores.forEach { $0.database.close() } }
        let period = BillingPeriod.containing(Date())
        let accepted = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<64 {
                group.addTask {
                    var mine = 0
                    // Each client asks for 7 characters 6 times: 2,688 asked for 1,000 available.
                    for _ in 0..<6 {
                        if case .accepted = try await stores[client % 4].charge(key, characters: 7, period: period) { mine += 7 }
                    }
                    return mine
                }
            }
            return try await group.reduce(0, +)
        }
        let used = try await stores[0].usage(of: key, period: period)
        // 1000 is not a multiple of 7: the best fill is 994, and every charge that fitted was taken.
        #expect(accepted == 994 && used.characters == 994 && used.requests == 142)
    }

    @Test("Migrations run once, also when several processes start at once; a newer schema is refused",
          arguments: StoreKind.available)
    func migrations(_ kind: StoreKind) async throws {
        let location = try await kind.location()
        let databases = (0..<4).map { _ in Database(location, connections: 1) }
        defer { databases.forEach { $0.close() } }
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for database in databases { group.addTask { try await KeyStore.schema.apply(to: database) } }
            return try await group.reduce([], +)
        }
        #expect(applied == KeyStore.schema.migrations.map(\.version))   // each once, whoever ran it
        #expect(try await KeyStore.schema.apply(to: databases[0]) == [])
        try await databases[0].execute("INSERT INTO glossa_migrations (version, applied_at) VALUES (99, 0)")
        await #expect(throws: DatabaseError.self) { try await KeyStore.schema.apply(to: databases[1]) }
    }

    @Test("Many processes opening one new SQLite file at once all get it, in WAL mode")
    func manyOpenersOfANewFile() async throws {
        // Switching a new file to WAL takes its exclusive lock; SQLite answers the openers that
        // lose that race SQLITE_BUSY at once (no busy wait, it could deadlock). CI saw it as
        // "database is locked" from a migration test; ten new files make the race likely.
        for _ in 0..<10 {
            let location = try await StoreKind.sqlite.location()
            let databases = (0..<8).map { _ in Database(location, connections: 1) }
            defer { databases.forEach { $0.close() } }
            let modes = try await withThrowingTaskGroup(of: String.self) { group in
                for database in databases {
                    group.addTask { try await database.execute("PRAGMA journal_mode").first?.text(0) ?? "" }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(modes == Array(repeating: "wal", count: 8))
        }
    }

    @Test("A database that cannot be reached is unavailable (fast after the first failure), not an error",
          arguments: StoreKind.allCases)
    func unreachable(_ kind: StoreKind) async throws {
        let location: DatabaseLocation = kind == .sqlite
            ? .sqlite(path: "/proc/glossa-no-such-dir/glossa.db") : .postgres(uri: "postgres://glossa@127.0.0.1:9/none")
        let database = Database(location)
        defer { database.close() }
        let store = KeyStore(database: database)
        for _ in 0..<2 {
            do {
                _ = try await store.find(secret: KeySecret.generate())
                Issue.record("expected the store to be unavailable")
            } catch let error as DatabaseError {
                #expect(error.isUnavailable, "\(error)")
            }
        }
    }
}
