import AccessControl
import Foundation
import ServerAPI
import SQLDatabase

/// `glossa serve`'s options for keys, quotas and rate limits, from the command line and the
/// config file (`--config FILE`, JSON); the command line wins where both set something.
struct AccessOptions {
    /// `--config`.
    var configPath: String?
    /// `--database`, else the config's `database`, else `GLOSSA_DATABASE`, else the XDG default.
    var database: String?
    /// Key checking by dialect (`--require-keys`, `--optional-keys`, the config's `keys`).
    var modes: [String: KeyMode] = [:]
    /// `--requests-per-minute`: for keys without their own limit.
    var keyRequestsPerMinute: Int?
    /// `--requests-per-minute-per-address`: for callers without a key.
    var addressRequestsPerMinute: Int?
    /// `--trusted-proxy` (repeatable, comma-separated).
    var trustedProxies: [String] = []
    /// The config's `host` and `port`, used where the command line gives none.
    var host: String?
    var port: Int?

    /// The option names, for `--help` and error messages.
    static let valued: Set<String> = ["--config", "--database", "--requests-per-minute", "--requests-per-minute-per-address", "--trusted-proxy"]

    /// Consumes `argument` (and its value from `rest`) when it is one of these options; false
    /// when it is not.
    /// - Throws: ``Arguments/UsageError`` for a bad value.
    mutating func consume(_ argument: String, _ rest: inout ArraySlice<String>) throws -> Bool {
        let (name, inline) = argument.firstIndex(of: "=").map { (String(argument[..<$0]), Optional(String(argument[argument.index(after: $0)...]))) }
            ?? (argument, nil)
        switch name {
        case "--require-keys", "--optional-keys":
            let mode: KeyMode = name == "--require-keys" ? .required : .optional
            for dialect in try Self.dialects(inline, option: name) { modes[dialect] = mode }
            return true
        case _ where Self.valued.contains(name):
            guard let value = inline ?? rest.popFirst(), !value.isEmpty else { throw Arguments.UsageError(description: "\(name) needs a value") }
            switch name {
            case "--config": configPath = value
            case "--database": database = value
            case "--requests-per-minute": keyRequestsPerMinute = try Self.perMinute(value, name)
            case "--requests-per-minute-per-address": addressRequestsPerMinute = try Self.perMinute(value, name)
            default: trustedProxies.append(value)
            }
            return true
        default:
            return false
        }
    }

    /// Reads the config file (when given) under what the command line set.
    /// - Throws: ``Arguments/UsageError`` naming the file and what is wrong in it.
    mutating func loadConfig() throws {
        guard let path = configPath else { return }
        let file = try ConfigFile.read(path)
        database = database ?? file.database
        modes = file.modes.merging(modes) { $1 }
        keyRequestsPerMinute = keyRequestsPerMinute ?? file.keyRequestsPerMinute
        addressRequestsPerMinute = addressRequestsPerMinute ?? file.addressRequestsPerMinute
        if trustedProxies.isEmpty { trustedProxies = file.trustedProxies }
        host = file.host
        port = file.port
    }

    /// The policy these options describe.
    func policy() throws -> AccessPolicy {
        var policy = AccessPolicy()
        policy.modes = modes
        policy.keyRequestsPerMinute = keyRequestsPerMinute
        policy.addressRequestsPerMinute = addressRequestsPerMinute
        do {
            policy.trustedProxies = try TrustedProxies(parsing: trustedProxies.joined(separator: ","))
        } catch {
            throw Arguments.UsageError(description: "--trusted-proxy: \(error)")
        }
        return policy
    }

    /// Where the key store is: `--database`/config, else `GLOSSA_DATABASE`, else the XDG default.
    static func location(_ given: String?, environment: [String: String]) throws -> DatabaseLocation {
        guard let text = given ?? environment["GLOSSA_DATABASE"] else { return .defaultLocation(environment: environment) }
        do { return try DatabaseLocation(parsing: text) } catch { throw Arguments.UsageError(description: "--database: \(error)") }
    }

    /// The dialects of `--require-keys=LIST` (bare: every dialect but APy).
    static func dialects(_ list: String?, option: String) throws -> [String] {
        guard let list else { return DialectRegistry.standard.requiredByDefault }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for name in names where !DialectRegistry.standard.keyedNames.contains(name) {
            throw Arguments.UsageError(description: "\(option): unknown protocol '\(name)'; one of \(DialectRegistry.standard.keyedNames.joined(separator: ", "))")
        }
        return names
    }

    static func perMinute(_ text: String, _ option: String) throws -> Int {
        guard let n = Int(text), (1...1_000_000_000).contains(n) else {
            throw Arguments.UsageError(description: "\(option) takes a whole number of requests per minute (1 or more), not '\(text)'")
        }
        return n
    }
}

/// The part of `glossa serve --help` about keys, quotas and rate limits.
let accessHelp = """
    KEYS, QUOTAS AND RATE LIMITS (off unless asked for; see docs/keys.md):
      --require-keys[=PROTOCOLS]
                      every request needs a key made with `glossa keys create`; bare: every
                      protocol but APy (open, as in APy), or a list such as google_v2,deepl
                      (protocols: \(DialectRegistry.standard.keyedNames.joined(separator: ", ")))
      --optional-keys[=PROTOCOLS]
                      a key, when given, must be valid and is charged; callers without one are
                      served (and limited by address)
      --database URL  the key store and the glossaries: a SQLite file (default
                      $XDG_DATA_HOME/glossa/glossa.db) or postgres://user@host/db shared by
                      several replicas, which also keeps document jobs there, so any replica
                      answers a document's status and download; migrated on start
      --requests-per-minute N
                      for keys without a limit of their own (default: none)
      --requests-per-minute-per-address N
                      for callers without a key, per client address (default: none)
      --trusted-proxy ADDRESSES
                      proxies (127.0.0.1, 10.0.0.0/8) whose X-Forwarded-For names the client
                      (default: none; the TCP peer is the client)
      --config FILE   these settings (and host, port) as JSON; the command line wins

      A refused request gets its protocol's own answer: Google 400 keyInvalid, 403
      forbidden / userRateLimitExceeded / dailyLimitExceeded, 429 RESOURCE_EXHAUSTED;
      LibreTranslate 400 / 403 "Invalid API key" / 429 "Slowdown: …"; DeepL 403, 429, 456; every
      limit with Retry-After. Characters are charged (code points of the texts) before any
      translation and given back when the request fails; the key store down is a 503.
    """
