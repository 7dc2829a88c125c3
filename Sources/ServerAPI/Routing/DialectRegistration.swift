import AccessControl

/// One wire protocol as it is registered: what is known of it before a server is built (its
/// name, title, where its clients put a key, whether a bare `--require-keys` covers it, its part
/// of `glossa serve --help`, its OpenAPI schemas) and how its endpoints are made. Every list of
/// protocols (the keyed names, help, the OpenAPI document, body limits, metrics labels) is derived
/// from the registered values (``DialectRegistry``), so a new protocol is one file that makes a
/// registration, and one entry in ``DialectRegistry/standard``.
public struct DialectRegistration: Sendable {
    /// Whether callers of a dialect carry keys, and where.
    enum Keys: Sendable {
        /// No key is ever read (the web app's files): the access layer lets every request through.
        case none
        /// Keys are read from `reader`; `requiredByBareFlag`: a bare `--require-keys` (or the config
        /// file's `"keys": "required"`) covers the dialect. APy is keyed but left out of the bare
        /// flag, as APy itself has no keys and its clients send none.
        case keyed(CredentialReader, requiredByBareFlag: Bool)
    }

    /// A bounded identifier (`google_v2`): metrics labels, OpenAPI, `--require-keys=google_v2`.
    public let name: String
    /// What people call it (`Google Cloud Translation v2`).
    public let title: String
    /// The version of the protocol served (`v2`, `1.9.6`), for the API documents.
    let version: String
    /// One paragraph for the OpenAPI document: what it is and how clients point at it.
    let summary: String
    /// Its keys.
    let keys: Keys
    /// Its phrase in `glossa serve --help`'s list of endpoints: the protocol and its paths.
    public let help: String
    /// Its OpenAPI body schemas (a JSON file as ``OpenAPISchemas`` reads it); nil: no JSON bodies.
    let schemas: [UInt8]?
    /// Makes its endpoints over a server's context.
    let make: @Sendable (DialectContext) -> Dialect

    init(name: String, title: String, version: String, summary: String, keys: Keys, help: String, schemas: [UInt8]?,
         make: @escaping @Sendable (DialectContext) -> Dialect) {
        self.name = name
        self.title = title
        self.version = version
        self.summary = summary
        self.keys = keys
        self.help = help
        self.schemas = schemas
        self.make = make
    }

    /// Where its clients put their key (``CredentialReader/none`` when it has no keys).
    var credentials: CredentialReader {
        if case .keyed(let reader, _) = keys { return reader }
        return .none
    }

    /// Whether callers may carry keys: the dialect can be named in `--require-keys=…`.
    public var isKeyed: Bool { if case .keyed = keys { return true } else { return false } }

    /// Whether a bare `--require-keys` requires keys of it.
    public var isRequiredByBareFlag: Bool {
        if case .keyed(_, let required) = keys { return required }
        return false
    }
}
