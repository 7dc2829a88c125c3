import AccessControl
import Foundation
import ServerAPI

/// `glossa serve --config FILE`: the settings a replica is started with, as one JSON object.
///
/// ```json
/// {
///   "host": "127.0.0.1", "port": 8081,
///   "database": "postgres://glossa@127.0.0.1:5432/glossa",
///   "keys": {"google_v2": "required", "deepl": "required", "libretranslate": "optional", "apy": "off"},
///   "requestsPerMinute": 600,
///   "requestsPerMinutePerAddress": 60,
///   "trustedProxies": ["127.0.0.1"]
/// }
/// ```
/// `"requireKeys": true` is `--require-keys`; `keys` sets protocols one by one (and wins).
/// An unknown member is an error, so a misspelt setting is never silently ignored.
struct ConfigFile {
    var host: String?
    var port: Int?
    var database: String?
    var modes: [String: KeyMode] = [:]
    var keyRequestsPerMinute: Int?
    var addressRequestsPerMinute: Int?
    var trustedProxies: [String] = []

    static let members: Set<String> = ["host", "port", "database", "requireKeys", "keys", "requestsPerMinute",
                                       "requestsPerMinutePerAddress", "trustedProxies"]

    /// Reads and checks `path`.
    /// - Throws: ``Arguments/UsageError`` naming the file and the problem.
    static func read(_ path: String) throws -> ConfigFile {
        func fail(_ problem: String) -> Arguments.UsageError { Arguments.UsageError(description: "config file \(path): \(problem)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot be read") }
        let raw: Raw
        do { raw = try JSONDecoder().decode(Raw.self, from: data) } catch let error as DecodingError {
            throw fail(Self.describe(error))
        } catch {
            throw fail("must be a JSON object ({\"database\": …, \"keys\": {…}})")
        }
        if let unknown = raw.members.sorted().first(where: { !members.contains($0) }) {
            throw fail("unknown setting '\(unknown)'; settings: \(members.sorted().joined(separator: ", "))")
        }
        func nonEmpty(_ value: String?, _ name: String) throws -> String? {
            guard let value else { return nil }
            guard !value.isEmpty else { throw fail("\(name) must be a non-empty string") }
            return value
        }
        func bounded(_ value: Int?, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let value else { return nil }
            guard range.contains(value) else { throw fail("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound)") }
            return value
        }
        var file = ConfigFile()
        file.host = try nonEmpty(raw.host, "host")
        file.port = try bounded(raw.port, "port", 0...65535)
        file.database = try nonEmpty(raw.database, "database")
        file.keyRequestsPerMinute = try bounded(raw.requestsPerMinute, "requestsPerMinute", 1...1_000_000_000)
        file.addressRequestsPerMinute = try bounded(raw.requestsPerMinutePerAddress, "requestsPerMinutePerAddress", 1...1_000_000_000)
        file.trustedProxies = raw.trustedProxies ?? []
        if raw.requireKeys == true {
            for name in DialectRegistry.standard.requiredByDefault { file.modes[name] = .required }
        }
        for (name, text) in raw.keys ?? [:] {
            guard DialectRegistry.standard.keyedNames.contains(name) else {
                throw fail("keys: unknown protocol '\(name)'; one of \(DialectRegistry.standard.keyedNames.joined(separator: ", "))")
            }
            guard let mode = KeyMode(rawValue: text) else { throw fail("keys.\(name) must be off, optional or required, not '\(text)'") }
            file.modes[name] = mode
        }
        return file
    }

    /// The file as JSON: typed members (JSONDecoder refuses `"port": "80"`, `1.5` or `true` for a
    /// number), and every member's name, so a misspelt one is reported.
    private struct Raw: Decodable {
        var members: [String] = []
        var host: String?
        var port: Int?
        var database: String?
        var requireKeys: Bool?
        var keys: [String: String]?
        var requestsPerMinute: Int?
        var requestsPerMinutePerAddress: Int?
        var trustedProxies: [String]?

        struct Name: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Name.self)
            members = c.allKeys.map(\.stringValue)
            func name(_ text: String) -> Name { Name(stringValue: text) }
            host = try c.decodeIfPresent(String.self, forKey: name("host"))
            port = try c.decodeIfPresent(Int.self, forKey: name("port"))
            database = try c.decodeIfPresent(String.self, forKey: name("database"))
            requireKeys = try c.decodeIfPresent(Bool.self, forKey: name("requireKeys"))
            keys = try c.decodeIfPresent([String: String].self, forKey: name("keys"))
            requestsPerMinute = try c.decodeIfPresent(Int.self, forKey: name("requestsPerMinute"))
            requestsPerMinutePerAddress = try c.decodeIfPresent(Int.self, forKey: name("requestsPerMinutePerAddress"))
            // One address or a list of them.
            if let one = try? c.decodeIfPresent(String.self, forKey: name("trustedProxies")) {
                trustedProxies = [one]
            } else {
                trustedProxies = try c.decodeIfPresent([String].self, forKey: name("trustedProxies"))
            }
        }
    }

    /// What is wrong, by member name (`port must be a number`).
    private static func describe(_ error: DecodingError) -> String {
        let wanted: [String: String] = [
            "host": "a non-empty string", "port": "a whole number in 0...65535", "database": "a non-empty string",
            "requireKeys": "true or false", "keys": "an object mapping protocols to off, optional or required",
            "requestsPerMinute": "a whole number of requests per minute", "requestsPerMinutePerAddress": "a whole number of requests per minute",
            "trustedProxies": "a list of addresses or networks",
        ]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            if let member = context.codingPath.first?.stringValue, let what = wanted[member] { return "\(member) must be \(what)" }
            return "must be a JSON object ({\"database\": …, \"keys\": {…}})"
        default:
            return "must be a JSON object ({\"database\": …, \"keys\": {…}})"
        }
    }
}
