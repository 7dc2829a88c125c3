import AccessControl

/// The protocols a server speaks, each registered once (``DialectRegistration``), and every list
/// derived from them: the dialects the router mounts, the names `--require-keys` takes and which
/// a bare `--require-keys` covers, the endpoint list of `glossa serve --help`, the OpenAPI
/// document's schemas and description. Nothing else names the protocols, so a dialect cannot be
/// served without being keyed, documented or listed.
public struct DialectRegistry: Sendable {
    /// The registered dialects, in mounting order (an earlier one's endpoint answers a shared
    /// path and method first unless the later one claims the request).
    public let registrations: [DialectRegistration]

    /// A registry of `registrations`, whose names must be distinct (the keyed names, metrics
    /// labels and OpenAPI schema names are keyed by them).
    init(_ registrations: [DialectRegistration]) {
        let names = registrations.map(\.name)
        precondition(Set(names).count == names.count, "two dialects registered under one name: \(names)")
        self.registrations = registrations
    }

    /// Every protocol Glossa speaks.
    public static let standard = DialectRegistry([
        GoogleV2Dialect.registration,
        GoogleV3Dialect.registration,
        AjaxV1Dialect.registration,
        APyDialect.registration,
        LibreTranslateDialect.registration,
        DeepLDialect.registration,
        GlossaDialect.registration,
        WebAppDialect.registration,
    ])

    /// The registry with `registration` added last.
    func adding(_ registration: DialectRegistration) -> DialectRegistry { DialectRegistry(registrations + [registration]) }

    /// The dialects whose clients carry keys, by the names `--require-keys=…` and the config file use.
    public var keyedNames: [String] { registrations.filter(\.isKeyed).map(\.name) }

    /// The dialects a bare `--require-keys` covers.
    public var requiredByDefault: [String] { registrations.filter(\.isRequiredByBareFlag).map(\.name) }

    /// The names in `policy` that are not keyed dialects of this registry: a policy naming one
    /// would check nothing there (a misspelt `google-v2` would leave Google v2 open), so a server
    /// refuses to start with one.
    public func unknownNames(in policy: AccessPolicy) -> [String] {
        let keyed = Set(keyedNames)
        return policy.modes.keys.filter { !keyed.contains($0) }.sorted()
    }

    /// The paragraph of `glossa serve --help` that lists the endpoints, wrapped to `width` columns.
    public func endpointsHelp(width: Int = 95) -> String {
        let text = "Endpoints: " + registrations.map(\.help).joined(separator: "; ")
            + ". A path with no endpoint gets a plain-text 404."
        return Self.wrap(text, width: width)
    }

    /// One sentence naming every protocol, for the OpenAPI document's description.
    var protocolsSentence: String {
        let titles = registrations.map(\.title)
        let listed = titles.count > 1 ? titles.dropLast().joined(separator: ", ") + " and " + titles.last! : titles.joined()
        return "Offline translation speaking \(listed)."
    }

    /// The OpenAPI schemas of every dialect that has a file.
    var schemas: OpenAPISchemas {
        OpenAPISchemas(files: registrations.compactMap { registration in registration.schemas.map { (registration.name, $0) } })
    }

    /// The mounted dialects over `context`.
    func dialects(_ context: DialectContext) -> [Dialect] {
        registrations.map { registration in
            let dialect = registration.make(context)
            // The router, the access layer and the documents read a dialect's identity from the
            // dialect it mounts: it must be the registered one.
            precondition(dialect.name == registration.name, "dialect \(registration.name) made a dialect named \(dialect.name)")
            return dialect
        }
    }

    /// `text` broken at spaces into lines of at most `width` columns (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
