import Foundation
import SQLDatabase
import Testing

/// The two stores every store test runs on: a SQLite file in a temporary directory, and a
/// database of its own on a real PostgreSQL server (left out, with the reason printed once,
/// where PostgreSQL is not installed).
public enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    public var testDescription: String { rawValue }

    /// A fresh, empty location of this kind.
    public func location() async throws -> DatabaseLocation {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-store-\(UUID().uuidString)")
            return .sqlite(path: directory.appendingPathComponent("glossa.db").path)
        case .postgres:
            return try await PostgresServer.shared().makeDatabase()
        }
    }

    /// The kinds that can run here.
    public static var available: [StoreKind] {
        if let reason = PostgresServer.unavailableReason {
            print("PostgreSQL store tests skipped: \(reason)")
            return [.sqlite]
        }
        return allCases
    }
}
