import AccessControl
import Foundation
import ServerAPI
import SQLDatabase

/// Builds `glossa serve`'s ``AccessController`` from its options: nil when nothing is checked
/// (then no database is opened at all, as before keys existed).
enum AccessSetup {
    static func make(_ options: AccessOptions, environment: [String: String]) async throws -> AccessController? {
        let policy = try options.policy()
        guard policy.isActive else { return nil }
        var store: KeyStore?
        if policy.checksKeys {
            let location = try AccessOptions.location(options.database, environment: environment)
            let made = KeyStore(database: Database(location))
            store = made
            Console.error("keys: \(describe(policy)); key store \(location)")
            // Connecting is bounded (libpq's connect_timeout; SQLite opens a local file), so a
            // database that is down delays the start by seconds, never indefinitely.
            do { try await made.prepare() } catch {
                Console.error("the key store is unavailable (\(error)); serving anyway: requests that need a key get 503 until it is reachable")
            }
        }
        if let perMinute = policy.addressRequestsPerMinute {
            Console.error("callers without a key: \(perMinute) requests per minute per address"
                          + (policy.trustedProxies.isEmpty ? "" : " (X-Forwarded-For from trusted proxies)"))
        }
        return AccessController(policy: policy, store: store) { Console.error($0) }
    }

    /// `required for google_v2, deepl; optional for libretranslate`.
    static func describe(_ policy: AccessPolicy) -> String {
        [KeyMode.required, .optional].compactMap { mode in
            let names = policy.modes.filter { $0.value == mode }.keys.sorted()
            return names.isEmpty ? nil : "\(mode.rawValue) for \(names.joined(separator: ", "))"
        }.joined(separator: "; ")
    }
}

extension ServerAPIConfiguration {
    /// The defaults with `access`.
    init(access: AccessController?) {
        self.init()
        self.access = access
    }
}
