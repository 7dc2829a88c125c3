/// Request or response header fields, in the order given. Names compare case-insensitively, as
/// HTTP defines them.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields as (name, value) pairs, in order; a name may repeat.
    public private(set) var fields: [(name: String, value: String)]

    /// Makes headers from pairs.
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Makes headers from a literal (`["Content-Type": "application/json"]`).
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, compared case-insensitively; nil when absent.
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Adds a field (keeping any earlier field of the same name).
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field of `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        let wanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == wanted }
        fields.append((name, value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count && zip(lhs.fields, rhs.fields).allSatisfy { $0 == $1 }
    }
}
