import Foundation
import HTTPServer

/// The key a caller presented, as its protocol carries it, for the authentication, quota and
/// rate-limit middleware: each dialect knows where its clients put the key (``CredentialReader``),
/// the middleware only decides what a key may do.
public struct Credential: Sendable, Equatable {
    /// Where the key was found.
    public enum Location: Sendable, Equatable {
        /// A header (`X-Goog-Api-Key`, `Authorization`).
        case header(String)
        /// A query-string or form parameter (`key`, `api_key`, DeepL's legacy `auth_key`).
        case parameter(String)
    }

    /// The key as given (no scheme prefix).
    public var key: String
    /// Where it was.
    public var location: Location

    /// Makes a credential.
    public init(key: String, location: Location) {
        self.key = key
        self.location = location
    }
}

/// How one dialect finds a caller's key in a request: a list of places, tried in order.
struct CredentialReader: Sendable {
    /// One place a key may be.
    enum Place: Sendable {
        /// A header's whole value.
        case header(String)
        /// A header's value after a scheme (`Authorization: DeepL-Auth-Key <key>`), scheme case-insensitive.
        case scheme(header: String, scheme: String)
        /// A parameter in the query, form or JSON body (whatever the endpoint reads).
        case parameter(String)
    }

    let places: [Place]

    /// No credential is read (web pages, health).
    static let none = CredentialReader(places: [])

    /// The first key found, nil when there is none (an empty value counts as none).
    func read(_ request: HTTPRequest, parameters: Parameters?) -> Credential? {
        for place in places {
            switch place {
            case .header(let name):
                if let value = request.headers[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return Credential(key: value, location: .header(name))
                }
            case .scheme(let name, let scheme):
                guard let value = request.headers[name] else { continue }
                let prefix = scheme.lowercased() + " "
                if value.lowercased().hasPrefix(prefix) {
                    let key = String(value.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
                    if !key.isEmpty { return Credential(key: key, location: .header(name)) }
                }
            case .parameter(let name):
                if let value = parameters?.last(name), !value.isEmpty {
                    return Credential(key: value, location: .parameter(name))
                }
            }
        }
        return nil
    }
}
