@testable import AccessControl
import Foundation
import SQLDatabase
import DatabaseTestSupport
import Testing

@Suite("Document jobs in the database, on SQLite and on PostgreSQL: the same tests on both")
struct DocumentJobTableTests {
    @Test("A job is written, finished with its bytes (every byte value, NUL included), read back and removed",
          arguments: StoreKind.available)
    func lifecycle(_ kind: StoreKind) async throws {
        let database = Database(try await kind.location())
        defer { database.close() }
        let table = DocumentJobTable(database: database)
        try await table.prepare()
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        try await table.put("A", .init(secret: "k", name: "report.docx", state: .translating, started: started))
        #expect(try await table.get("A")?.state == .translating)
        #expect(try await table.get("B") == nil)
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let done = DocumentJobTable.Row(secret: "k", name: "report.docx", state: .done, format: "docx", document: bytes,
                                        characters: 42, started: started, finished: started.addingTimeInterval(3))
        try await table.put("A", done)
        #expect(try await table.get("A") == done)
        // An empty document is bytes, not NULL.
        try await table.put("E", .init(secret: "", name: "empty.txt", state: .done, format: "txt", document: [], characters: 0,
                                       started: started, finished: started))
        #expect(try await table.get("E")?.document == [])
        try await table.remove("A")
        #expect(try await table.get("A") == nil)
    }

    @Test("Expiry drops old finished jobs, jobs abandoned while translating, and the oldest past the byte bound",
          arguments: StoreKind.available)
    func expiry(_ kind: StoreKind) async throws {
        let database = Database(try await kind.location())
        defer { database.close() }
        let table = DocumentJobTable(database: database)
        try await table.prepare()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        func finished(_ seconds: Double, size: Int) -> DocumentJobTable.Row {
            .init(secret: "", name: "f", state: .done, format: "txt", document: [UInt8](repeating: 65, count: size), characters: size,
                  started: t0, finished: t0.addingTimeInterval(seconds))
        }
        try await table.put("old", finished(0, size: 10))
        try await table.put("abandoned", .init(secret: "", name: "f", state: .translating, started: t0))
        try await table.put("mid", finished(200, size: 60))
        try await table.put("new", finished(300, size: 60))
        try await table.expire(finishedBefore: t0.addingTimeInterval(100), startedBefore: t0.addingTimeInterval(100), maxBytes: 100)
        #expect(try await table.get("old") == nil)
        #expect(try await table.get("abandoned") == nil)
        #expect(try await table.get("mid") == nil)   // 60 + 60 > 100: the older of the two goes
        #expect(try await table.get("new") != nil)
    }
}
